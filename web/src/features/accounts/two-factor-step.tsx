import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { isApiError, serverErrorText } from '@/lib/api';
import { useLoginSecondFactorMutation } from './accounts-api';

/**
 * The sign-in's second step (two-factor on): a 6-digit code from the authenticator app, or a
 * recovery code. A sign-in that expired or took too many codes starts again with the password.
 */
export function TwoFactorStep({
  onSignedIn,
  onStartOver,
}: {
  onSignedIn: () => void;
  onStartOver: (message: string | null) => void;
}) {
  const [verify, { isLoading }] = useLoginSecondFactorMutation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  function switchKind() {
    setRecovery(!recovery);
    setCode('');
    setError(null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!(recovery ? entered.length > 0 : /^\d{6}$/.test(entered))) {
      setError(recovery ? 'Enter one of your recovery codes' : 'Enter the 6-digit code from your authenticator app');
      return;
    }
    try {
      await verify({ code: entered }).unwrap();
      onSignedIn();
    } catch (failure) {
      const text = serverErrorText(failure) ?? 'Verification failed. Please try again.';
      if (isApiError(failure) && (failure.status === 401 || failure.status === 429)) onStartOver(text);
      else setError(text);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <Typography variant="body2" color="textSecondary">
          {recovery
            ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'
            : 'Open your authenticator app and enter the 6-digit code for Lively.'}
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          key={recovery ? 'recovery' : 'totp'}
          label={recovery ? 'Recovery code' : 'Authentication code'}
          name="code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
          autoComplete="one-time-code"
          autoFocus
          fullWidth
          slotProps={{
            htmlInput: recovery
              ? { autoCapitalize: 'none', spellCheck: false, maxLength: 20 }
              : { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6 },
          }}
        />
        <Button type="submit" variant="contained" size="large" disabled={isLoading} fullWidth>
          {isLoading ? 'Verifying...' : 'Verify'}
        </Button>
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={switchKind} sx={{ minHeight: 44 }}>
            {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </Button>
          <Button color="inherit" onClick={() => onStartOver(null)} sx={{ minHeight: 44 }}>
            Back to sign in
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
