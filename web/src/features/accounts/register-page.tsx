import CreditCard from '@mui/icons-material/CreditCard';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDispatch } from 'react-redux';
import { Link as RouterLink, useNavigate } from 'react-router';
import { registerFormSchema } from '@contracts/accounts';
import { api, errorMessage, isApiError, serverErrorText, type ApiDispatch } from '@/lib/api';
import { currentUserApi } from '@/lib/current-user';
import { toast } from '@/components/toast';
import { AuthCard } from './auth-card';
import { useRegisterMutation } from './accounts-api';
import { formatCardNumber, formatExpiry, tokenizeCard } from './card-token';
import { registerErrorText } from './error-messages';
import { fieldErrors } from './field-errors';
import { PasswordField } from './password-field';
import { useDocumentTitle } from '@/lib/use-document-title';
import { prefersMotion } from '@/lib/motion';

export const REDIRECT_AFTER_REGISTER_MS = 2000;
const USER_REFRESH_ATTEMPTS = 10;
const USER_REFRESH_DELAY_MS = 500;

const empty = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  cardNumber: '',
  expiry: '',
  cvv: '',
};
type Form = typeof empty;

/** SPEC §2 Register ('Create Account'): account fields, card fields, the $1.99 charge. */
export function RegisterPage() {
  useDocumentTitle('Create Account');
  const dispatch = useDispatch<ApiDispatch>();
  const navigate = useNavigate();
  const [register, { isLoading }] = useRegisterMutation();
  const [form, setForm] = useState<Form>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const alertRef = useRef<HTMLDivElement>(null);

  // The form is long: bring a server error into view.
  useEffect(() => {
    if (formError)
      alertRef.current?.scrollIntoView?.({ block: 'center', behavior: prefersMotion() ? 'smooth' : 'auto' });
  }, [formError]);

  const set =
    (key: keyof Form, format: (v: string) => string = (v) => v) =>
    (event: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [key]: format(event.target.value) }));

  /**
   * Refreshes the user before moving on, so /home is judged with the new session. The users
   * read model may trail the answer on a busy server: ask again a few times before giving up.
   */
  async function refreshUntilSignedIn() {
    for (let attempt = 0; attempt < USER_REFRESH_ATTEMPTS; attempt++) {
      const refresh = dispatch(currentUserApi.endpoints.currentUser.initiate(undefined, { forceRefetch: true }));
      const result = await refresh;
      refresh.unsubscribe();
      if (result.data) return;
      await new Promise((resolve) => setTimeout(resolve, USER_REFRESH_DELAY_MS));
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const account = registerFormSchema.safeParse(form);
    const card = tokenizeCard(form, new Date());
    const found = { ...(account.success ? {} : fieldErrors(account.error)), ...('errors' in card ? card.errors : {}) };
    setErrors(found);
    if (!account.success || !('token' in card)) return;
    try {
      const answer = await register({ ...account.data, paymentToken: card.token }).unwrap();
      setDone(true);
      toast({
        title: 'Welcome to Lively!',
        description: answer?.message || 'Your account has been created and subscription is active.',
      });
      setTimeout(async () => {
        await refreshUntilSignedIn();
        dispatch(api.util.invalidateTags(['SubscriptionStatus']));
        navigate('/home');
      }, REDIRECT_AFTER_REGISTER_MS);
    } catch (error) {
      // A refused card is the gateway's answer, like a tokenization failure: say it as given.
      const declined = isApiError(error) && error.status === 402 ? serverErrorText(error) : null;
      setFormError(declined ?? registerErrorText(errorMessage(error)));
    }
  }

  const pending = isLoading || done;
  const field = (key: keyof Form) => ({
    name: key,
    value: form[key],
    error: !!errors[key],
    helperText: errors[key],
    fullWidth: true,
  });

  return (
    <AuthCard
      title="Create Account"
      subtitle="Join Lively: premium creators and live chat for verified adults"
      maxWidth={520}
    >
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <Alert severity="warning" icon={<VerifiedUserOutlined />}>
            You must be 18 or older to join. A credit card is required for age verification.
          </Alert>
          {formError && (
            <Alert ref={alertRef} severity="error">
              {formError}
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="First name"
              autoComplete="given-name"
              onChange={set('firstName')}
              {...field('firstName')}
            />
            <TextField label="Last name" autoComplete="family-name" onChange={set('lastName')} {...field('lastName')} />
          </Stack>
          <TextField label="Email" type="email" autoComplete="email" onChange={set('email')} {...field('email')} />
          <PasswordField
            label="Password"
            autoComplete="new-password"
            onChange={set('password')}
            {...field('password')}
          />
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            onChange={set('confirmPassword')}
            {...field('confirmPassword')}
          />

          <Divider sx={{ pt: 1 }}>
            <Typography
              variant="overline"
              color="textSecondary"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
            >
              <CreditCard fontSize="small" /> Payment information
            </Typography>
          </Divider>
          <TextField
            label="Card number"
            placeholder="1234 5678 9012 3456"
            autoComplete="cc-number"
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            onChange={set('cardNumber', formatCardNumber)}
            {...field('cardNumber')}
          />
          <Stack direction="row" spacing={2}>
            <TextField
              label="Expiration (MM/YY)"
              placeholder="MM/YY"
              autoComplete="cc-exp"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
              onChange={set('expiry', formatExpiry)}
              {...field('expiry')}
            />
            <TextField
              label="CVV"
              placeholder="123"
              autoComplete="cc-csc"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4 } }}
              onChange={set('cvv', (v) => v.replace(/\D/g, ''))}
              {...field('cvv')}
            />
          </Stack>
          <Alert severity="info">
            Your card will be charged $1.99 today and every month until you cancel. The charge appears on your statement
            as an official Lively membership subscription. Cancel at any time.
          </Alert>
          <Button type="submit" variant="contained" size="large" disabled={pending} fullWidth>
            {pending ? 'Creating Account & Processing Payment...' : 'Create Account & Subscribe ($1.99/month)'}
          </Button>
          <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
            Already have an account?{' '}
            <Link component={RouterLink} to="/login">
              Sign in
            </Link>
          </Typography>
          <Typography variant="caption" color="textSecondary" sx={{ textAlign: 'center' }}>
            By creating an account you agree to our{' '}
            <Link component={RouterLink} to="/terms-of-service">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link component={RouterLink} to="/privacy-policy">
              Privacy Policy
            </Link>{' '}
            and confirm that you are at least 18 years old.
          </Typography>
        </Stack>
      </Box>
    </AuthCard>
  );
}
