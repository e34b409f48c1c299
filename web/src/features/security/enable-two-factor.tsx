import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import type { TwoFactorSetup } from '@contracts/two-factor';
import { serverErrorText } from '@/lib/api';
import { useEnableTwoFactorMutation } from './security-api';

/** The manual key of an otpauth URL, in groups of four for reading aloud or typing. */
export const manualKey = (otpauthUrl: string) =>
  (new URL(otpauthUrl).searchParams.get('secret') ?? '').replace(/(.{4})(?=.)/g, '$1 ');

/** Scan (or type) the new secret, then confirm it with a code from the app. */
export function EnableTwoFactor({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const [enable, { isLoading }] = useEnableTwoFactorMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(entered)) return setError('Enter the 6-digit code from your authenticator app');
    try {
      onEnabled((await enable({ code: entered }).unwrap()).recoveryCodes);
    } catch (failure) {
      setError(serverErrorText(failure) ?? 'Could not turn on two-factor authentication. Please try again.');
    }
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <Typography variant="body1">
          1. Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).
        </Typography>
        <Box
          component="img"
          src={setup.qrDataUrl}
          alt="QR code for your authenticator app"
          sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff', borderRadius: 1 }}
        />
        <Typography variant="body2" color="textSecondary">
          Can&apos;t scan it? Enter this key in the app instead:
        </Typography>
        <Typography
          data-testid="manual-key"
          sx={{ fontFamily: 'monospace', fontSize: '1rem', overflowWrap: 'anywhere', textAlign: 'center' }}
        >
          {manualKey(setup.otpauthUrl)}
        </Typography>
        <Typography variant="body1">2. Enter the 6-digit code the app shows.</Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label="Authentication code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6 } }}
          fullWidth
        />
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onCancel} sx={{ minHeight: 44 }}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading} sx={{ minHeight: 44 }}>
            {isLoading ? 'Verifying...' : 'Verify and turn on'}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
