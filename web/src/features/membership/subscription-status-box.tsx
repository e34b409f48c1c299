import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { failedAnswer, useCancelSubscriptionMutation } from './membership-api';
import { useSubscriptionStatusQuery } from './subscribe-api';
import { formatDate } from '@/lib/format';

/**
 * Cancel asks first, naming the day access ends (the paid period's end, which the cancellation
 * keeps); SPEC §8 toasts for the answer.
 */
function CancelSubscription({ accessUntil }: { accessUntil: string | null }) {
  const [open, setOpen] = useState(false);
  const [cancel, canceling] = useCancelSubscriptionMutation();
  const onConfirm = async () => {
    try {
      const answer = await cancel().unwrap();
      setOpen(false);
      if (answer.success) toast({ title: 'Subscription Canceled', description: answer.message });
      else toast({ title: 'Cancellation Failed', description: answer.message, variant: 'destructive' });
    } catch (error) {
      setOpen(false);
      const failed = failedAnswer(error);
      if (failed) return void toast({ title: 'Cancellation Failed', description: failed, variant: 'destructive' });
      toast({
        title: 'Cancellation Error',
        description: serverErrorText(error) ?? 'Failed to cancel subscription. Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)} sx={{ mt: 1.5, minHeight: 44 }}>
        Cancel Subscription
      </Button>
      <Dialog open={open} onClose={() => !canceling.isLoading && setOpen(false)} aria-labelledby="cancel-title">
        <DialogTitle id="cancel-title">Cancel your subscription?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {accessUntil
              ? `You keep access until ${accessUntil}. Your plan will not renew after that.`
              : 'You keep access until the end of the paid period. Your plan will not renew after that.'}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={canceling.isLoading} sx={{ minHeight: 44 }}>
            Keep Subscription
          </Button>
          <Button
            color="error"
            variant="contained"
            onClick={onConfirm}
            disabled={canceling.isLoading}
            sx={{ minHeight: 44 }}
          >
            {canceling.isLoading ? 'Canceling...' : 'Yes, Cancel'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** SPEC §4: 'active' shows Active Subscription and Cancel, anything else No Active Subscription. */
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
      ? `Your subscription is canceled. You keep access until ${renews}.`
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
      <Stack sx={{ alignItems: 'flex-start', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700 }}>{active ? 'Active Subscription' : 'No Active Subscription'}</Typography>
        <Typography variant="body2" color="textSecondary">
          {active
            ? [lastPayment && `Last payment: ${lastPayment}`, renews && `Renews: ${renews}`]
                .filter(Boolean)
                .join(' · ') || 'Your membership is active.'
            : inactiveText}
        </Typography>
        {!data.ageVerified && (
          // A darker orange: MUI's warning orange is under 4.5:1 as text on white.
          <Typography
            variant="body2"
            sx={{ mt: 0.5, color: (theme) => (theme.palette.mode === 'light' ? '#9a3f00' : 'warning.light') }}
          >
            Age verification pending: a card authorization is required.
          </Typography>
        )}
        {active && <CancelSubscription accessUntil={renews} />}
      </Stack>
    </Paper>
  );
}
