import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { loginSchema } from '@contracts/accounts';
import { browser, errorMessage } from '@/lib/api';
import { toastAfterReload } from '@/components/toast';
import { AuthCard } from './auth-card';
import { useLoginMutation } from './accounts-api';
import { loginErrorText } from './error-messages';
import { fieldErrors } from './field-errors';
import { PasswordField } from './password-field';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EmailField } from './email-field';
import { TwoFactorStep } from './two-factor-step';

/** SPEC §2 Login ('Welcome Back'). Success: a full page load of /, then the toast. */
export function LoginPage({ afterLogin = () => browser.assign('/') }: { afterLogin?: () => void }) {
  useDocumentTitle('Welcome Back');
  const [login, { isLoading }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [secondStep, setSecondStep] = useState(false);

  function welcome() {
    // The full page load that follows would drop a toast raised now: it is shown once / has loaded.
    toastAfterReload({ title: 'Welcome back!', description: "You've been logged in successfully." });
    afterLogin();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      const answer = await login(parsed.data).unwrap();
      if (answer?.twoFactorRequired) setSecondStep(true);
      else welcome();
    } catch (error) {
      setFormError(loginErrorText(errorMessage(error)));
    }
  }

  if (secondStep)
    return (
      <AuthCard title="Welcome Back" subtitle="Two-factor authentication">
        <TwoFactorStep
          onSignedIn={welcome}
          onStartOver={(message) => {
            setSecondStep(false);
            setPassword('');
            setFormError(message);
          }}
        />
      </AuthCard>
    );

  return (
    <AuthCard title="Welcome Back" subtitle="Sign in to your Lively account">
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          {formError && <Alert severity="error">{formError}</Alert>}
          <EmailField value={email} onChange={setEmail} error={errors.email} />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={!!errors.password}
            helperText={errors.password}
            fullWidth
          />
          <Box sx={{ textAlign: 'right' }}>
            <Link component={RouterLink} to="/forgot-password" variant="body2">
              Forgot your password?
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={isLoading} fullWidth>
            {isLoading ? 'Signing In...' : 'Sign In'}
          </Button>
          <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
            Don&apos;t have an account?{' '}
            <Link component={RouterLink} to="/register">
              Create one
            </Link>
          </Typography>
        </Stack>
      </Box>
    </AuthCard>
  );
}
