import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useSubscriptionStatusQuery } from './subscribe-api';
import { formatDate } from '@/lib/format';

/** SPEC §4: 'active' shows Active Subscription, anything else No Active Subscription. */
export function SubscriptionStatusBox() {
  const { data, isLoading, isError } = useSubscriptionStatusQuery();
  if (isLoading) return <Skeleton variant="rounded" height={88} />;
  if (isError || !data)
    return <Alert severity="error">Unable to load your subscription status. Please try again later.</Alert>;

  const active = data.subscriptionStatus === 'active';
  const lastPayment = formatDate(data.lastPaymentDate) || null;
  const renews = formatDate(data.subscriptionEndDate) || null;
  const stillOpen = !active && !!data.subscriptionEndDate && new Date(data.subscriptionEndDate) > new Date();
  const inactiveText =
    stillOpen && data.subscriptionStatus === 'canceled'
      ? `Canceled: your access continues until ${renews}.`
      : stillOpen && data.subscriptionStatus === 'past_due'
        ? `Your last renewal payment failed: access continues until ${renews}.`
        : 'Subscribe to unlock creators, messages and live chat.';
  return (
    <Paper
      variant="outlined"
      data-testid="subscription-status"
      sx={{
        p: 2.5,
        display: 'flex',
        gap: 2,
        alignItems: 'flex-start',
        borderColor: active ? 'success.main' : 'warning.main',
      }}
    >
      {active ? <CheckCircle color="success" /> : <ErrorOutline color="warning" />}
      <Box>
        <Typography sx={{ fontWeight: 700 }}>{active ? 'Active Subscription' : 'No Active Subscription'}</Typography>
        <Typography variant="body2" color="textSecondary">
          {active
            ? [lastPayment && `Last payment: ${lastPayment}`, renews && `Renews: ${renews}`]
                .filter(Boolean)
                .join(' · ') || 'Your membership is active.'
            : inactiveText}
        </Typography>
        {!data.ageVerified && (
          <Typography variant="body2" color="warning" sx={{ mt: 0.5 }}>
            Age verification pending: a card authorization is required.
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
