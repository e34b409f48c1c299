import PhotoCamera from '@mui/icons-material/PhotoCamera';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo } from 'react';

/** One photo of the verification form: a button that opens the picker, a preview, the field's error. */
export function PhotoPicker({
  label,
  hint,
  file,
  error,
  onChange,
}: {
  label: string;
  hint: string;
  file: File | null;
  error?: string;
  onChange: (file: File | null) => void;
}) {
  const id = useId();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  return (
    <Box>
      <Typography component="label" htmlFor={id} variant="subtitle2" sx={{ display: 'block', mb: 0.5 }}>
        {label}
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
        {hint}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button component="label" variant="outlined" startIcon={<PhotoCamera />} sx={{ minHeight: 44 }}>
          {file ? 'Choose another photo' : 'Choose photo'}
          <input
            id={id}
            hidden
            type="file"
            accept="image/*"
            aria-invalid={Boolean(error)}
            onChange={(event) => onChange(event.target.files?.[0] ?? null)}
          />
        </Button>
        {preview && (
          <Box
            component="img"
            src={preview}
            alt={`${label} preview`}
            sx={{
              width: 120,
              maxWidth: '100%',
              height: 80,
              objectFit: 'cover',
              borderRadius: 1,
              border: 1,
              borderColor: 'divider',
            }}
          />
        )}
        {file && (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {file.name}
          </Typography>
        )}
      </Box>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
