import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FILTER_ORIENTATIONS, type ChatMode } from '@contracts/chat';
import { ORIENTATION_LABELS } from '@/lib/profile-labels';
import type { ChatSettings } from './use-lively-chat';

export const DEFAULT_SETTINGS: ChatSettings = { mode: 'standard', ageRange: [18, 65], orientation: 'any' };

/** The Filters dialog ('Chat Preferences', SPEC §2): mode, age range 18-65, orientation in standard mode. */
export function ChatFiltersDialog({
  open,
  settings,
  onChange,
  onClose,
}: {
  open: boolean;
  settings: ChatSettings;
  onChange: (next: ChatSettings) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Chat Preferences</DialogTitle>
      <DialogContent>
        <Stack spacing={3} sx={{ pt: 1 }}>
          <RadioGroup
            value={settings.mode}
            onChange={(e) => onChange({ ...settings, mode: e.target.value as ChatMode })}
            aria-label="Chat mode"
          >
            <FormControlLabel
              value="standard"
              control={<Radio />}
              label={
                <Typography>
                  Smart Matching{' '}
                  <Typography component="span" variant="body2" color="textSecondary">
                    (compatibility-based)
                  </Typography>
                </Typography>
              }
            />
            <FormControlLabel
              value="random"
              control={<Radio />}
              label={
                <Typography>
                  Random Chat{' '}
                  <Typography component="span" variant="body2" color="textSecondary">
                    (anyone)
                  </Typography>
                </Typography>
              }
            />
          </RadioGroup>
          <Stack spacing={1}>
            <Typography variant="subtitle2" id="age-range-label">
              Age Range: {settings.ageRange[0]} - {settings.ageRange[1]}
            </Typography>
            <Slider
              aria-labelledby="age-range-label"
              min={18}
              max={65}
              step={1}
              value={settings.ageRange}
              onChange={(_e, value) => onChange({ ...settings, ageRange: value as [number, number] })}
              valueLabelDisplay="auto"
            />
          </Stack>
          {settings.mode === 'standard' && (
            <TextField
              select
              label="Sexual Orientation"
              value={settings.orientation}
              onChange={(e) => onChange({ ...settings, orientation: e.target.value })}
            >
              {FILTER_ORIENTATIONS.map((o) => (
                <MenuItem key={o} value={o}>
                  {ORIENTATION_LABELS[o]}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
