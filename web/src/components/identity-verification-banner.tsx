import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import type { VerificationState } from '@contracts/verification';
import { useVerificationStatusQuery, VERIFICATION_PATH } from '@/lib/verification-api';

const BANNER: Record<Exclude<VerificationState, 'verified'>, { severity: 'info' | 'warning'; text: string }> = {
  not_started: {
    severity: 'warning',
    text: 'Verify your identity to publish locked posts, send paid messages and request payouts.',
  },
  pending: { severity: 'info', text: 'We are checking your identity. This usually takes a few seconds.' },
  needs_review: { severity: 'info', text: 'Your identity verification is being reviewed by our team.' },
  rejected: { severity: 'warning', text: 'Your identity verification was not accepted. You can submit it again.' },
};

/** The creator dashboard's reminder until the identity is verified (nothing once it is). */
export function IdentityVerificationBanner() {
  const { data } = useVerificationStatusQuery();
  if (!data || data.state === 'verified') return null;
  const { severity, text } = BANNER[data.state];
  return (
    <Alert
      severity={severity}
      data-testid="identity-verification-banner"
      sx={{ mb: 3, alignItems: 'center' }}
      action={
        <Button component={RouterLink} to={VERIFICATION_PATH} color="inherit" sx={{ minHeight: 44 }}>
          {data.state === 'not_started' || data.state === 'rejected' ? 'Verify now' : 'View status'}
        </Button>
      }
    >
      {text}
    </Alert>
  );
}
