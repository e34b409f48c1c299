import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Clickable tags; chosen ones are filled (or red, `destructive`, for deal-breakers). */
export function TagPicker({
  label,
  options,
  value,
  onChange,
  destructive = false,
}: {
  label: string;
  options: readonly string[];
  value: string[];
  onChange: (next: string[]) => void;
  destructive?: boolean;
}) {
  const toggle = (option: string) =>
    onChange(value.includes(option) ? value.filter((v) => v !== option) : [...value, option]);
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">{label}</Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label={label}>
        {options.map((option) => {
          const chosen = value.includes(option);
          return (
            <Chip
              key={option}
              label={option}
              clickable
              aria-pressed={chosen}
              color={chosen ? (destructive ? 'error' : 'primary') : 'default'}
              variant={chosen ? 'filled' : 'outlined'}
              onClick={() => toggle(option)}
            />
          );
        })}
      </Stack>
    </Stack>
  );
}
