import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { CreatorSubscriptionStatus, MemberSubscription, RenewalSource } from '@contracts/creator-subscriptions';
import { parseCents } from '@contracts/money';
import { errorMessage, isUnauthorized, serverErrorText } from '@/lib/api';
import { useTiersQuery } from '@/lib/creators-api';
import { useCryptoBalanceQuery } from '@/lib/crypto-balance-api';
import { formatDate, usd } from '@/lib/format';
import {
  useCancelCreatorSubscriptionMutation,
  useChangeSubscriptionTierMutation,
  useRefundSubscriptionMutation,
  useResumeSubscriptionMutation,
  useSetRenewalSourceMutation,
} from '@/lib/subscriptions-api';
import { toast } from './toast';

const STATUS_CHIPS: Record<
  CreatorSubscriptionStatus,
  { label: string; color: 'success' | 'default' | 'warning' | 'error' }
> = {
  active: { label: 'Active', color: 'success' },
  canceled: { label: 'Canceled', color: 'warning' },
  past_due: { label: 'Payment failed', color: 'error' },
  expired: { label: 'Ended', color: 'default' },
  refunded: { label: 'Refunded', color: 'default' },
};

/** What the next renewal charges: the new tier's price when the member changed it. */
const renewalPriceOf = (subscription: MemberSubscription) => subscription.nextTier?.price ?? subscription.price;

/** Renewals from the card on file say nothing more; from the balance they say so. */
const RENEWAL_SOURCE_SUFFIX: Record<RenewalSource, string> = { card: '', balance: ' from your USD balance' };

/**
 * One line on where the subscription stands: "Renews on 1 Apr 2026 at $4.99" (card on file),
 * "Renews on 1 Apr 2026 at $4.99 from your USD balance", "Canceled: access until 1 Apr 2026".
 */
export function subscriptionStatusText(subscription: MemberSubscription): string {
  const { status, renewsAt, endsAt } = subscription;
  const renewalPrice = usd(renewalPriceOf(subscription));
  const from = RENEWAL_SOURCE_SUFFIX[subscription.renewFrom];
  if (status === 'active') return `Renews on ${formatDate(renewsAt)} at ${renewalPrice}${from}`;
  if (status === 'canceled') return `Canceled: access until ${formatDate(endsAt)}`;
  if (status === 'past_due')
    return `Payment failed: access until ${formatDate(endsAt)}${renewsAt ? `, next try on ${formatDate(renewsAt)}${from}` : ''}`;
  if (status === 'refunded') return `Refunded: access ended on ${formatDate(endsAt)}`;
  return `Ended on ${formatDate(endsAt)}`;
}

/** Runs a subscription mutation with a toast for its outcome. */
async function withToast(run: () => Promise<unknown>, done: string): Promise<boolean> {
  try {
    await run();
    toast({ title: done });
    return true;
  } catch (error) {
    toast({ title: 'Something went wrong', description: errorMessage(error), variant: 'destructive' });
    return false;
  }
}

function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirm: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>{props.children}</DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} sx={{ minHeight: 44 }}>
          Keep it
        </Button>
        <Button variant="contained" onClick={props.onConfirm} disabled={props.busy} sx={{ minHeight: 44 }}>
          {props.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Picks another of the creator's tiers; it is charged from the next renewal, the paid period keeps its tier. */
function ChangeTierDialog({ subscription, onClose }: { subscription: MemberSubscription; onClose: () => void }) {
  const tiers = useTiersQuery(subscription.creatorId);
  const upcoming = subscription.nextTier?.tierId ?? subscription.tierId;
  const [tierId, setTierId] = useState(upcoming);
  const [change, { isLoading }] = useChangeSubscriptionTierMutation();
  const submit = async () => {
    const ok = await withToast(
      () => change({ id: subscription.id, creatorId: subscription.creatorId, tierId }).unwrap(),
      `Tier changed from ${formatDate(subscription.periodEnd)}`,
    );
    if (ok) onClose();
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Change tier</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }} data-testid="tier-change-terms">
          The new price applies from your next renewal on {formatDate(subscription.periodEnd)}. You keep{' '}
          {subscription.tierName} until then; nothing is charged now.
        </Typography>
        {tiers.isLoading ? (
          <Skeleton height={120} />
        ) : (
          <RadioGroup value={tierId} onChange={(event) => setTierId(event.target.value)}>
            {(tiers.data ?? []).map((tier) => (
              <FormControlLabel
                key={tier.id}
                value={tier.id}
                control={<Radio />}
                label={`${tier.name}: ${usd(tier.price)}/month`}
                sx={{ minHeight: 44 }}
              />
            ))}
          </RadioGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} sx={{ minHeight: 44 }}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={isLoading || tierId === upcoming} sx={{ minHeight: 44 }}>
          Change tier
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const RENEWAL_SOURCE_TOASTS: Record<RenewalSource, string> = {
  card: 'Renewals will be charged to your card on file',
  balance: 'Renewals will be paid from your USD balance',
};

/**
 * "Renew with": the card on file or the USD balance, while the subscription renews (active or
 * past due). The choice is sent at once; the server's refusal (409, 404) is shown as it is worded.
 */
function RenewalSourceControl({ subscription }: { subscription: MemberSubscription }) {
  const labelId = useId();
  const balance = useCryptoBalanceQuery(undefined, { refetchOnMountOrArgChange: true });
  const [setRenewalSource, { isLoading }] = useSetRenewalSourceMutation();
  // The choice being sent, shown until the subscription's own renewFrom (as it was then) moves on.
  const [choice, setChoice] = useState<{ source: RenewalSource; was: RenewalSource } | null>(null);
  const source = choice && choice.was === subscription.renewFrom ? choice.source : subscription.renewFrom;

  const renewalPrice = renewalPriceOf(subscription);
  const balanceCents = balance.data ? parseCents(balance.data.totalUsd) : null;
  const priceCents = parseCents(renewalPrice) ?? 0;
  const short = source === 'balance' && balanceCents !== null && balanceCents < priceCents;

  const choose = async (next: RenewalSource) => {
    if (next === source) return;
    setChoice({ source: next, was: subscription.renewFrom });
    try {
      await setRenewalSource({ id: subscription.id, creatorId: subscription.creatorId, source: next }).unwrap();
      toast({ title: RENEWAL_SOURCE_TOASTS[next] });
    } catch (error) {
      setChoice(null);
      if (isUnauthorized(error)) return;
      toast({
        title: 'Renewal payment not changed',
        description: serverErrorText(error) ?? errorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <FormControl component="fieldset" sx={{ mt: 1.5, display: 'block', minWidth: 0 }}>
      <FormLabel id={labelId} component="legend" sx={{ typography: 'body2', fontWeight: 600 }}>
        Renew with
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        value={source}
        onChange={(event) => void choose(event.target.value as RenewalSource)}
        sx={{ flexDirection: { xs: 'column', sm: 'row' }, columnGap: 2 }}
      >
        <FormControlLabel
          value="card"
          control={<Radio />}
          label="Card on file"
          disabled={isLoading}
          sx={{ minHeight: 44, mr: 0 }}
        />
        <FormControlLabel
          value="balance"
          control={<Radio />}
          label={balance.data ? `USD balance (${usd(balance.data.totalUsd)})` : 'USD balance'}
          disabled={isLoading}
          sx={{ minHeight: 44, mr: 0, '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
        />
      </RadioGroup>
      {short && (
        <Alert severity="warning" sx={{ mt: 0.5 }} data-testid="renewal-balance-hint">
          Your balance covers less than the next renewal of {usd(renewalPrice)}: it will be declined unless you add
          funds or switch back to your card
        </Alert>
      )}
    </FormControl>
  );
}

type Pending = 'cancel' | 'refund' | 'tier' | null;

/** What the member may do now: change tier, cancel, resubscribe, claim the money-back guarantee. */
function SubscriptionActions({ subscription }: { subscription: MemberSubscription }) {
  const [pending, setPending] = useState<Pending>(null);
  const [cancel, canceling] = useCancelCreatorSubscriptionMutation();
  const [resume, resuming] = useResumeSubscriptionMutation();
  const [refund, refunding] = useRefundSubscriptionMutation();
  const arg = { id: subscription.id, creatorId: subscription.creatorId };
  const { status } = subscription;
  const close = () => setPending(null);
  const ended = status === 'expired' || status === 'refunded';

  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
      {status === 'active' && (
        <Button variant="outlined" onClick={() => setPending('tier')} sx={{ minHeight: 44 }}>
          Change tier
        </Button>
      )}
      {(status === 'active' || status === 'past_due') && (
        <Button variant="outlined" color="inherit" onClick={() => setPending('cancel')} sx={{ minHeight: 44 }}>
          Cancel subscription
        </Button>
      )}
      {status === 'canceled' && (
        <Button
          variant="contained"
          disabled={resuming.isLoading}
          onClick={() => withToast(() => resume(arg).unwrap(), 'Subscription resumed')}
          sx={{ minHeight: 44 }}
        >
          Resubscribe
        </Button>
      )}
      {subscription.refundableUntil && (
        <Button color="inherit" onClick={() => setPending('refund')} sx={{ minHeight: 44 }}>
          Money-back guarantee
        </Button>
      )}
      {ended && (
        <Button component={RouterLink} to={`/creator/${subscription.creatorId}`} sx={{ minHeight: 44 }}>
          Subscribe again
        </Button>
      )}

      <ConfirmDialog
        open={pending === 'cancel'}
        title={`Cancel your subscription to ${subscription.creatorName}?`}
        confirm="Cancel subscription"
        busy={canceling.isLoading}
        onClose={close}
        onConfirm={async () => (await withToast(() => cancel(arg).unwrap(), 'Subscription canceled')) && close()}
      >
        <Typography>
          {status === 'past_due'
            ? 'Your renewal was not paid, so access ends now.'
            : `You keep access until ${formatDate(subscription.periodEnd)} and are not charged again. You can resubscribe before then at no cost.`}
        </Typography>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === 'refund'}
        title="Claim the money-back guarantee?"
        confirm={`Refund ${usd(subscription.price)}`}
        busy={refunding.isLoading}
        onClose={close}
        onConfirm={async () => (await withToast(() => refund(arg).unwrap(), 'Refund on its way')) && close()}
      >
        <Typography>
          {usd(subscription.price)} goes back to your card and your access to {subscription.creatorName} ends at once.
        </Typography>
      </ConfirmDialog>
      {pending === 'tier' && <ChangeTierDialog subscription={subscription} onClose={close} />}
    </Stack>
  );
}

/** One creator subscription: who, which tier, where it stands, and what the member can do. */
export function SubscriptionCard({
  subscription,
  showCreator = true,
}: {
  subscription: MemberSubscription;
  showCreator?: boolean;
}) {
  const chip = STATUS_CHIPS[subscription.status];
  return (
    <Card variant="outlined" data-testid="subscription-card">
      <CardContent sx={{ pb: '16px !important' }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          {showCreator && (
            <Avatar src={subscription.creatorAvatarUrl ?? undefined} alt="" sx={{ bgcolor: 'secondary.main' }}>
              {subscription.creatorName[0]?.toUpperCase()}
            </Avatar>
          )}
          <Box sx={{ minWidth: 0, flex: 1 }}>
            {showCreator && (
              <Link
                component={RouterLink}
                to={`/creator/${subscription.creatorId}`}
                sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}
              >
                {subscription.creatorName}
              </Link>
            )}
            <Typography variant="body2" color="textSecondary">
              {subscription.tierName} · {usd(subscription.price)}/month
            </Typography>
          </Box>
          <Chip
            size="small"
            variant="outlined"
            color={chip.color}
            label={chip.label}
            data-testid="subscription-status"
          />
        </Stack>
        <Typography sx={{ mt: 1.5 }} data-testid="subscription-when">
          {subscriptionStatusText(subscription)}
        </Typography>
        {subscription.nextTier && (
          <Typography variant="body2" color="textSecondary" data-testid="subscription-next-tier">
            From {formatDate(subscription.periodEnd)}: {subscription.nextTier.tierName} at{' '}
            {usd(subscription.nextTier.price)}/month
          </Typography>
        )}
        {subscription.refundableUntil && (
          <Typography variant="body2" color="textSecondary">
            Money-back guarantee until {formatDate(subscription.refundableUntil)}
          </Typography>
        )}
        {(subscription.status === 'active' || subscription.status === 'past_due') && (
          <RenewalSourceControl subscription={subscription} />
        )}
        <SubscriptionActions subscription={subscription} />
      </CardContent>
    </Card>
  );
}
