import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import type { TwoFactorSetup } from '@contracts/two-factor';
import { toast } from '@/components/toast';
import { serverErrorText } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EnableTwoFactor } from './enable-two-factor';
import { RecoveryCodes } from './recovery-codes';
import { useDisableTwoFactorMutation, useStartTwoFactorSetupMutation, useTwoFactorStatusQuery } from './security-api';

type View = { kind: 'status' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] };

/** /security: two-factor authentication (TOTP) on or off, and the recovery codes left. */
export function SecurityPage() {
  useDocumentTitle('Security');
  const status = useTwoFactorStatusQuery();
  const [startSetup, setupState] = useStartTwoFactorSetupMutation();
  const [view, setView] = useState<View>({ kind: 'status' });
  const [error, setError] = useState<string | null>(null);

  async function begin() {
    setError(null);
    try {
      setView({ kind: 'setup', setup: await startSetup().unwrap() });
    } catch (failure) {
      setError(serverErrorText(failure) ?? 'Could not start the setup. Please try again.');
    }
  }

  const enabled = status.data?.enabled ?? false;
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Security
      </Typography>
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
              <Typography variant="h6" component="h2">
                Two-factor authentication
              </Typography>
              {status.data && (
                <Chip
                  data-testid="two-factor-state"
                  label={enabled ? 'On' : 'Off'}
                  color={enabled ? 'success' : 'default'}
                  size="small"
                />
              )}
            </Stack>
            {status.isLoading && <Skeleton variant="rounded" height={80} />}
            {status.isError && <Alert severity="error">Could not load your security settings.</Alert>}
            {error && <Alert severity="error">{error}</Alert>}
            {status.data && view.kind === 'codes' && (
              <RecoveryCodes codes={view.codes} onDone={() => setView({ kind: 'status' })} />
            )}
            {status.data && view.kind === 'setup' && (
              <EnableTwoFactor
                setup={view.setup}
                onEnabled={(codes) => setView({ kind: 'codes', codes })}
                onCancel={() => setView({ kind: 'status' })}
              />
            )}
            {status.data && view.kind === 'status' && !enabled && (
              <>
                <Typography variant="body2" color="textSecondary">
                  Protect your account with a code from an authenticator app as well as your password. Creators need it
                  to add a payment account and to withdraw earnings.
                </Typography>
                <Box>
                  <Button variant="contained" onClick={begin} disabled={setupState.isLoading} sx={{ minHeight: 44 }}>
                    Turn on two-factor authentication
                  </Button>
                </Box>
              </>
            )}
            {status.data && view.kind === 'status' && enabled && (
              <TurnOff recoveryCodesLeft={status.data.recoveryCodesLeft} />
            )}
          </Stack>
        </CardContent>
      </Card>
    </Container>
  );
}

/** While on: the recovery codes left, and turning it off with a code. */
function TurnOff({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const [disable, { isLoading }] = useDisableTwoFactorMutation();
  const [asking, setAsking] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!entered) return setError('Enter a code from your authenticator app or a recovery code');
    try {
      await disable({ code: entered }).unwrap();
      toast({ title: 'Two-factor authentication is off' });
    } catch (failure) {
      setError(serverErrorText(failure) ?? 'Could not turn off two-factor authentication. Please try again.');
    }
  }

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="textSecondary">
        Signing in asks for a code from your authenticator app after your password.
      </Typography>
      <Typography variant="body2" data-testid="recovery-codes-left">
        Recovery codes left: {recoveryCodesLeft} of 10
      </Typography>
      {recoveryCodesLeft <= 3 && (
        <Alert severity="warning">Few recovery codes are left: turn two-factor off and on again for new ones.</Alert>
      )}
      {asking ? (
        <Box component="form" noValidate onSubmit={onSubmit}>
          <Stack spacing={2}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Authentication or recovery code"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setError(null);
              }}
              autoComplete="one-time-code"
              slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false, maxLength: 20 } }}
              fullWidth
            />
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1 }}>
              <Button onClick={() => setAsking(false)} sx={{ minHeight: 44 }}>
                Cancel
              </Button>
              <Button type="submit" color="error" variant="contained" disabled={isLoading} sx={{ minHeight: 44 }}>
                {isLoading ? 'Turning off...' : 'Turn off'}
              </Button>
            </Stack>
          </Stack>
        </Box>
      ) : (
        <Box>
          <Button color="error" variant="outlined" onClick={() => setAsking(true)} sx={{ minHeight: 44 }}>
            Turn off two-factor authentication
          </Button>
        </Box>
      )}
    </Stack>
  );
}
