import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { SIX_MONTH_PLAN, formatCents, parseCents } from '@contracts/money';
import { isApiError, serverErrorText } from '@/lib/api';
import { logger } from '@/lib/logger';
import { toast } from '@/components/toast';
import { useCryptoBalanceQuery } from '@/lib/crypto-balance-api';
import {
  failedAnswer,
  requiresAgeVerification,
  useSubscribeMutation,
  useSubscribeWithCryptoMutation,
} from './membership-api';
import { useSubscriptionStatusQuery } from './subscribe-api';
import { formatDate } from '@/lib/format';

type Plan = 'monthly' | 'six-months';

const dateOf = (iso: string | null | undefined) => formatDate(iso) || null;

/**
 * The plan tabs (Monthly / 6-Month '+1 Free'), the crypto balance box and the subscribe buttons
 * of the subscribe page, with every SPEC §8 message (Cancel is in the status box, which confirms it).
 */
export function PlanOptions() {
  const navigate = useNavigate();
  const [plan, setPlan] = useState<Plan>('monthly');
  const { data: status } = useSubscriptionStatusQuery();
  const balance = useCryptoBalanceQuery();
  const [subscribe, subscribing] = useSubscribeMutation();
  const [subscribeWithCrypto, buying] = useSubscribeWithCryptoMutation();

  const active = status?.subscriptionStatus === 'active';
  const canceled = status?.subscriptionStatus === 'canceled';
  const balanceCents = parseCents(balance.data?.totalUsd ?? '0') ?? 0;
  const enoughBalance = balanceCents >= SIX_MONTH_PLAN.priceCents;

  const askForAgeVerification = () => {
    toast({
      title: 'Age Verification Required',
      description: 'Please verify your age before subscribing.',
      variant: 'destructive',
    });
    navigate('/verify-age');
  };

  const onSubscribe = async () => {
    try {
      const answer = await subscribe().unwrap();
      if (answer.success) toast({ title: 'Subscription successful!', description: answer.message });
      else toast({ title: 'Subscription Failed', description: answer.message, variant: 'destructive' });
    } catch (error) {
      if (requiresAgeVerification(error)) return askForAgeVerification();
      const failed = failedAnswer(error);
      if (failed) return void toast({ title: 'Subscription Failed', description: failed, variant: 'destructive' });
      if (
        isApiError(error) &&
        (error.status === 400 || error.status === 409) &&
        /already subscribed/i.test(error.bodyText)
      ) {
        logger.info('subscribe: already subscribed', { status: error.status });
        return;
      }
      toast({
        title: 'Subscription Error',
        description: serverErrorText(error) ?? 'Failed to create subscription. Please try again.',
        variant: 'destructive',
      });
    }
  };

  const onSubscribeWithCrypto = async () => {
    try {
      const answer = await subscribeWithCrypto({ months: SIX_MONTH_PLAN.months }).unwrap();
      if (answer.success) toast({ title: 'Welcome to the Party!', description: answer.message });
      else toast({ title: 'Crypto Subscription Failed', description: answer.message, variant: 'destructive' });
    } catch (error) {
      if (requiresAgeVerification(error)) return askForAgeVerification();
      const failed = failedAnswer(error);
      if (failed)
        return void toast({ title: 'Crypto Subscription Failed', description: failed, variant: 'destructive' });
      toast({
        title: 'Crypto Subscription Error',
        description: serverErrorText(error) ?? 'Failed to create crypto subscription. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Stack spacing={2}>
      {status?.subscriptionStatus === 'past_due' && (
        <Alert severity="warning">
          Your last renewal payment was declined. Subscribe again to keep your access
          {status.subscriptionEndDate ? ` after ${dateOf(status.subscriptionEndDate)}` : ''}.
        </Alert>
      )}

      <Paper
        variant="outlined"
        data-testid="crypto-balance-box"
        sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2 }}
      >
        <AccountBalanceWallet color={enoughBalance ? 'success' : 'action'} />
        <Box sx={{ flex: 1 }}>
          <Typography sx={{ fontWeight: 700 }}>Crypto Balance: ${balance.data?.totalUsd ?? '0.00'}</Typography>
          <Typography variant="body2" color="textSecondary">
            {enoughBalance
              ? 'Enough for the 6-month plan.'
              : `The 6-month plan needs $${formatCents(SIX_MONTH_PLAN.priceCents)}.`}{' '}
            <Link component={RouterLink} to="/wallet">
              Convert crypto in your wallet
            </Link>
          </Typography>
        </Box>
      </Paper>

      <Paper variant="outlined">
        <Tabs
          value={plan}
          onChange={(_event, value: Plan) => setPlan(value)}
          variant="fullWidth"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="monthly" label="Monthly" />
          <Tab
            value="six-months"
            label={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>6-Month</span>
                <Chip label="+1 Free" size="small" color="success" />
              </Stack>
            }
          />
        </Tabs>
        <Box sx={{ p: 2.5 }}>
          {plan === 'monthly' ? (
            <Stack spacing={1.5}>
              <Typography variant="h5" sx={{ fontWeight: 800 }}>
                $1.99{' '}
                <Typography component="span" color="textSecondary">
                  / month
                </Typography>
              </Typography>
              <Typography variant="body2" color="textSecondary">
                Charged to your card on file, renewed automatically every month. Appears on statements as an official
                membership subscription.
              </Typography>
              {active ? (
                <Typography variant="body2" color="success.main" sx={{ fontWeight: 600 }}>
                  You are subscribed monthly.
                </Typography>
              ) : (
                <Button variant="contained" size="large" onClick={onSubscribe} disabled={subscribing.isLoading}>
                  {subscribing.isLoading
                    ? 'Processing...'
                    : canceled
                      ? 'Resume Subscription'
                      : 'Subscribe for $1.99/month'}
                </Button>
              )}
            </Stack>
          ) : (
            <Stack spacing={1.5}>
              <Typography variant="h5" sx={{ fontWeight: 800 }}>
                ${formatCents(SIX_MONTH_PLAN.priceCents)}{' '}
                <Typography component="span" color="textSecondary">
                  for 7 months
                </Typography>
              </Typography>
              <Typography variant="body2" color="textSecondary">
                6 × $1.99 paid from your crypto balance, plus one month free.
                {active ? ' Added after your current period.' : ''}
              </Typography>
              <Button
                variant="contained"
                color="success"
                size="large"
                onClick={onSubscribeWithCrypto}
                disabled={!enoughBalance || buying.isLoading}
              >
                {buying.isLoading
                  ? 'Processing...'
                  : `Pay $${formatCents(SIX_MONTH_PLAN.priceCents)} from Crypto Balance`}
              </Button>
            </Stack>
          )}
        </Box>
      </Paper>
    </Stack>
  );
}
