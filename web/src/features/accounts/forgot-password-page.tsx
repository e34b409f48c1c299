import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { resetRequestSchema } from '@contracts/accounts';
import { errorMessage } from '@/lib/api';
import { AuthCard, AuthOutcome } from './auth-card';
import { useResetPasswordRequestMutation } from './accounts-api';
import { resetErrorText } from './error-messages';
import { fieldErrors } from './field-errors';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EmailField } from './email-field';

/** SPEC §2 Forgot password ('Reset Password'), replaced by 'Check Your Email' on success. */
export function ForgotPasswordPage() {
  useDocumentTitle('Reset Password');
  const [requestReset, { isLoading }] = useResetPasswordRequestMutation();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = resetRequestSchema.safeParse({ email });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      await requestReset(parsed.data).unwrap();
      setSent(true);
    } catch (error) {
      setFormError(resetErrorText(errorMessage(error)));
    }
  }

  if (sent) {
    return (
      <AuthOutcome title="Check Your Email" icon={<MarkEmailReadOutlined color="primary" sx={{ fontSize: 56 }} />}>
        If an account exists with that email, we&apos;ve sent you a password reset link.
      </AuthOutcome>
    );
  }

  return (
    <AuthCard title="Reset Password" subtitle="Enter your email and we'll send you a link to reset your password.">
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          {formError && <Alert severity="error">{formError}</Alert>}
          <EmailField value={email} onChange={setEmail} error={errors.email} />
          <Button type="submit" variant="contained" size="large" disabled={isLoading} fullWidth>
            {isLoading ? 'Sending Reset Link...' : 'Send Reset Link'}
          </Button>
          <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
            Remember your password?{' '}
            <Link component={RouterLink} to="/login">
              Sign in
            </Link>
          </Typography>
        </Stack>
      </Box>
    </AuthCard>
  );
}
