import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { VERIFICATION_PATH } from '@/lib/verification-api';

/** Says what needs a verified identity (the server's 403 text) and leads to the verification page. */
export function IdentityRequiredAlert({ message }: { message: string }) {
  return (
    <Alert severity="warning" data-testid="identity-required">
      {message}.{' '}
      <Button
        component={RouterLink}
        to={VERIFICATION_PATH}
        size="small"
        sx={{ minHeight: 44, verticalAlign: 'baseline' }}
      >
        Verify identity
      </Button>
    </Alert>
  );
}
