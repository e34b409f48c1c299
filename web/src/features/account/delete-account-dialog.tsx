import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useDispatch } from 'react-redux';
import { deleteAccountSchema } from '@contracts/account';
import { INVALID_TWO_FACTOR_CODE, TWO_FACTOR_CODE_REQUIRED } from '@contracts/two-factor';
import { toastAfterReload } from '@/components/toast';
import { api, browser, isApiError, serverErrorText, type ApiDispatch } from '@/lib/api';
import { useAccountTwoFactorStatusQuery, useDeleteAccountMutation } from './account-api';

type Fields = { password?: string; code?: string };

/** The server's per-field messages (`{ fields }` of a 400), when it named the password or the code. */
function serverFields(failure: unknown): Fields {
  const fields = isApiError(failure) ? (failure.bodyJson as { fields?: Fields } | undefined)?.fields : undefined;
  return { password: fields?.password, code: fields?.code };
}

/** Whether a refusal is about the two-factor code (so the field shows even if the status said off). */
function isAboutCode(failure: unknown, fields: Fields): boolean {
  const text = serverErrorText(failure);
  return !!fields.code || text === INVALID_TWO_FACTOR_CODE || text === TWO_FACTOR_CODE_REQUIRED;
}

/** Confirms the deletion: the password, the two-factor code when it is on, and "cannot be undone". */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useDispatch<ApiDispatch>();
  const twoFactor = useAccountTwoFactorStatusQuery();
  const [remove, { isLoading }] = useDeleteAccountMutation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [askCode, setAskCode] = useState(false);
  const [errors, setErrors] = useState<Fields>({});
  const [formError, setFormError] = useState<string | null>(null);
  const withCode = askCode || !!twoFactor.data?.enabled;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = deleteAccountSchema.safeParse({ password, code: withCode ? code : undefined });
    const next: Fields = {
      password: parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'password')?.message,
      code: withCode && !code.trim() ? TWO_FACTOR_CODE_REQUIRED : undefined,
    };
    setErrors(next);
    if (!parsed.success || next.code) return;
    try {
      await remove(parsed.data).unwrap();
    } catch (failure) {
      const fields = serverFields(failure);
      if (isAboutCode(failure, fields)) setAskCode(true);
      setErrors(fields);
      if (!fields.password && !fields.code)
        setFormError(serverErrorText(failure) ?? 'Could not delete your account. Please try again.');
      return;
    }
    // The session is over: nothing cached may outlive it. A full load, to the sign-in page: the
    // landing page is static HTML without the app's toasts, and a toast raised now would be lost.
    toastAfterReload({ title: 'Your account has been deleted' });
    dispatch(api.util.resetApiState());
    browser.assign('/login');
  }

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="delete-account-title"
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="delete-account-title">Delete your account?</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2" color="textSecondary">
              Your subscriptions end, and your profile, posts and messages are removed. This cannot be undone.
            </Typography>
            {formError && <Alert severity="error">{formError}</Alert>}
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setErrors((current) => ({ ...current, password: undefined }));
              }}
              error={!!errors.password}
              helperText={errors.password}
              autoFocus
              fullWidth
            />
            {withCode && (
              <TextField
                label="Authentication or recovery code"
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setErrors((current) => ({ ...current, code: undefined }));
                }}
                error={!!errors.code}
                helperText={errors.code ?? 'Two-factor authentication is on for your account.'}
                autoComplete="one-time-code"
                slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false, maxLength: 32 } }}
                fullWidth
              />
            )}
            <FormControlLabel
              control={<Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />}
              label="I understand this cannot be undone"
              sx={{ minHeight: 44 }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose} disabled={isLoading} sx={{ minHeight: 44 }}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            disabled={!understood || isLoading || twoFactor.isLoading}
            sx={{ minHeight: 44 }}
          >
            {isLoading ? 'Deleting...' : 'Delete my account'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
