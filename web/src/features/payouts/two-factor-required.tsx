import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { isApiError } from '@/lib/api';

/** The server's 403 when money would leave an account without two-factor on: its message, else null. */
export function twoFactorRequiredText(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const body = error.bodyJson as { code?: unknown; error?: unknown } | undefined;
  return body?.code === 'TWO_FACTOR_REQUIRED' && typeof body.error === 'string' ? body.error : null;
}

/** Says what is missing and leads to the Security page, where two-factor is turned on. */
export function TwoFactorRequiredAlert({ message }: { message: string }) {
  return (
    <Alert severity="warning" data-testid="two-factor-required">
      {message}.{' '}
      <Button component={RouterLink} to="/security" size="small" sx={{ minHeight: 44, verticalAlign: 'baseline' }}>
        Go to Security
      </Button>
    </Alert>
  );
}
