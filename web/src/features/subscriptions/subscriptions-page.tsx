import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { SubscriptionCard } from '@/components/subscription-card';
import { useMySubscriptionsQuery } from '@/lib/subscriptions-api';
import { useDocumentTitle } from '@/lib/use-document-title';

/** My subscriptions (/subscriptions): every creator the member subscribes to, with renewal (and how it is paid), cancel, tier and refund. */
export function SubscriptionsPage() {
  useDocumentTitle('My subscriptions');
  // Renewals happen while the page is closed: read the list afresh each time it opens.
  const list = useMySubscriptionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const subscriptions = list.data?.subscriptions ?? [];

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        My subscriptions
      </Typography>
      <Typography color="textSecondary" sx={{ mt: 0.5, mb: 3 }}>
        Subscriptions renew monthly on your card on file, or from your USD balance if you choose. Cancel any time and
        keep access until the paid period ends; a new tier applies from the next renewal. Within 7 days of a charge, the
        money-back guarantee refunds it.
      </Typography>
      {list.isLoading ? (
        <Stack spacing={1.5}>
          {[0, 1].map((i) => (
            <Skeleton key={i} variant="rounded" height={140} />
          ))}
        </Stack>
      ) : list.isError ? (
        <Alert severity="error">Unable to load your subscriptions. Please try again later.</Alert>
      ) : subscriptions.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="textSecondary" sx={{ mb: 2 }}>
            You have no creator subscriptions yet
          </Typography>
          <Button variant="contained" component={RouterLink} to="/search" sx={{ minHeight: 44 }}>
            Find creators
          </Button>
        </Paper>
      ) : (
        <Stack spacing={1.5}>
          {subscriptions.map((subscription) => (
            <SubscriptionCard key={subscription.id} subscription={subscription} />
          ))}
        </Stack>
      )}
    </Container>
  );
}
