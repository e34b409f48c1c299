import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { VerificationStatus } from '@contracts/verification';
import { useCurrentUser } from '@/lib/current-user';
import { formatDateTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useVerificationStatusQuery } from '@/lib/verification-api';
import { VerificationForm } from './verification-form';

/** While the provider checks, the status is asked for again this often. */
const PENDING_POLL_MS = 2000;

function StatusNote({ status }: { status: VerificationStatus }) {
  switch (status.state) {
    case 'verified':
      return (
        <Alert severity="success" data-testid="verification-state">
          <AlertTitle>Your identity is verified</AlertTitle>
          You can publish locked posts, send paid messages and request payouts
          {status.decidedAt ? ` (verified ${formatDateTime(status.decidedAt)})` : ''}.
        </Alert>
      );
    case 'pending':
      return (
        <Alert severity="info" icon={<CircularProgress size={20} aria-hidden />} data-testid="verification-state">
          <AlertTitle>Checking your identity</AlertTitle>
          This usually takes a few seconds; this page updates by itself.
        </Alert>
      );
    case 'needs_review':
      return (
        <Alert severity="info" data-testid="verification-state">
          <AlertTitle>Being reviewed by our team</AlertTitle>
          Our compliance team looks at your documents and decides, usually within a day.
        </Alert>
      );
    case 'rejected':
      return (
        <Alert severity="error" data-testid="verification-state">
          <AlertTitle>Your verification was not accepted</AlertTitle>
          {status.reason ? `Reason: ${status.reason}. ` : ''}Please check your photos and submit again.
        </Alert>
      );
    case 'not_started':
      return null;
  }
}

/** /dashboard/verification: the creator's identity verification (issue 20). */
export function VerificationPage() {
  useDocumentTitle('Identity Verification');
  const { user } = useCurrentUser();
  const { data: status, isLoading } = useVerificationStatusQuery(undefined, { skip: !user?.isCreator });
  // A second subscription to the same status polls it while the provider checks.
  useVerificationStatusQuery(undefined, { skip: status?.state !== 'pending', pollingInterval: PENDING_POLL_MS });

  if (user && !user.isCreator)
    return (
      <Container maxWidth="sm" sx={{ py: 6 }}>
        <Alert severity="info">
          Identity verification is for creators.{' '}
          <Button component={RouterLink} to="/dashboard" size="small" sx={{ minHeight: 44 }}>
            Become a creator
          </Button>
        </Alert>
      </Container>
    );
  const showForm = status?.state === 'not_started' || status?.state === 'rejected';
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack spacing={3}>
        <div>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            Identity verification
          </Typography>
          <Typography color="textSecondary">
            Before you publish locked posts, send paid messages or request payouts, we check that you are who you say
            you are and 18 or older.
          </Typography>
        </div>
        {isLoading || !status ? (
          <Skeleton variant="rounded" height={120} />
        ) : (
          <>
            <StatusNote status={status} />
            {showForm && (
              <Card>
                <CardContent>
                  <VerificationForm />
                </CardContent>
              </Card>
            )}
          </>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <LockOutlined fontSize="small" color="action" aria-hidden />
          <Typography variant="body2" color="textSecondary">
            Your photos are encrypted and stored apart from your posts. Only our compliance staff can see them.
          </Typography>
        </Stack>
        <Button component={RouterLink} to="/dashboard" sx={{ alignSelf: 'flex-start', minHeight: 44 }}>
          Back to dashboard
        </Button>
      </Stack>
    </Container>
  );
}
