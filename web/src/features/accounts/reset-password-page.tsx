import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { resetPasswordSchema } from '@contracts/accounts';
import { errorMessage, serverErrorText } from '@/lib/api';
import { AuthCard, AuthOutcome } from './auth-card';
import { useResetPasswordMutation } from './accounts-api';
import { resetErrorText } from './error-messages';
import { fieldErrors } from './field-errors';
import { PasswordField } from './password-field';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The link in the reset email: /reset-password?token=… sets a new password. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a New Password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = resetPasswordSchema.safeParse({ token, password, confirmPassword });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      if (found.token) setFormError(found.token);
      return;
    }
    setErrors({});
    try {
      await resetPassword(parsed.data).unwrap();
      setChanged(true);
    } catch (error) {
      // An expired or used link is worth saying as the server says it; the rest per SPEC §8.
      const message = errorMessage(error);
      const server = serverErrorText(error);
      setFormError(server && /token|link|expired/i.test(server) ? server : resetErrorText(message));
    }
  }

  if (changed) {
    return (
      <AuthOutcome title="Password Updated" icon={<CheckCircleOutline color="success" sx={{ fontSize: 56 }} />}>
        Your password has been changed. You can now sign in with your new password.
      </AuthOutcome>
    );
  }

  return (
    <AuthCard title="Choose a New Password" subtitle="Enter a new password for your Lively account.">
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          {!token && (
            <Alert severity="warning">
              This reset link is incomplete. Please use the link from your email, or request a new one.
            </Alert>
          )}
          {formError && <Alert severity="error">{formError}</Alert>}
          <PasswordField
            label="New password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={!!errors.password}
            helperText={errors.password}
            fullWidth
          />
          <PasswordField
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
            error={!!errors.confirmPassword}
            helperText={errors.confirmPassword}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={isLoading} fullWidth>
            {isLoading ? 'Updating Password...' : 'Update Password'}
          </Button>
          <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to="/forgot-password">
              Request a new link
            </Link>{' '}
            ·{' '}
            <Link component={RouterLink} to="/login">
              Sign in
            </Link>
          </Typography>
        </Stack>
      </Box>
    </AuthCard>
  );
}
