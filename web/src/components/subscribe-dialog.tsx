import Check from '@mui/icons-material/Check';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Creator } from '@contracts/creators';
import type { PromotionOffer } from '@contracts/promotions';
import { toast } from './toast';
import { isApiError, isUnauthorized, serverErrorText } from '@/lib/api';
import { formatDate, usd } from '@/lib/format';
import { useSubscribeToCreatorMutation, useTiersQuery } from '@/lib/creators-api';
import { offerText, usePromotionOfferQuery } from '@/lib/promotions-api';

const OFFER_GONE: Record<Exclude<PromotionOffer['status'], 'active'>, string> = {
  ended: 'This offer has ended.',
  expired: 'This offer has expired.',
  used_up: 'This offer has been fully redeemed.',
};

/** A promotion's refusal (its code) is worth showing as the server says it: the member can still subscribe. */
const promotionRefusal = (error: unknown) => {
  const code = isApiError(error) ? (error.bodyJson as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && /^(PROMOTION|TRIAL)_/.test(code) ? serverErrorText(error) : null;
};

/** The offer of a share link above the tiers: what it gives, or why it no longer does. */
function OfferNotice({ offer, failed }: { offer: PromotionOffer | undefined; failed: boolean }) {
  if (failed)
    return (
      <Alert severity="warning" sx={{ mb: 2 }} data-testid="offer-notice">
        This offer is no longer valid. You can still subscribe at the regular price.
      </Alert>
    );
  if (!offer) return null;
  if (offer.status !== 'active')
    return (
      <Alert severity="warning" sx={{ mb: 2 }} data-testid="offer-notice">
        {OFFER_GONE[offer.status]} You can still subscribe at the regular price.
      </Alert>
    );
  return (
    <Alert severity="success" sx={{ mb: 2 }} data-testid="offer-notice">
      <strong>{offerText(offer)}</strong> on {offer.tierName}. {offer.remaining} left · ends {formatDate(offer.endsAt)}.
    </Alert>
  );
}

/** The tier dialog (SPEC §2 Creator profile): tiers, a 7-day money-back promise, cancel anytime. */
export function SubscribeDialog({
  creator,
  open,
  onClose,
  promotionId = null,
}: {
  creator: Creator | null;
  open: boolean;
  onClose: () => void;
  /** A share link's promotion (issue 21): its tier is offered on its terms. */
  promotionId?: string | null;
}) {
  const { data: tiers, isLoading } = useTiersQuery(creator?.id ?? '', { skip: !creator || !open });
  const offerQuery = usePromotionOfferQuery(promotionId ?? '', { skip: !promotionId || !open });
  const offer =
    offerQuery.data?.creatorId === creator?.id && offerQuery.data?.status === 'active' ? offerQuery.data : null;
  const [subscribe, { isLoading: subscribing, originalArgs }] = useSubscribeToCreatorMutation();

  const choose = async (tierId: string) => {
    if (!creator) return;
    const withOffer = offer?.tierId === tierId ? { promotionId: offer.id } : {};
    try {
      await subscribe({ creatorId: creator.id, tierId, ...withOffer }).unwrap();
      toast({ title: 'Subscription successful!', description: "Welcome to the creator's community!" });
      onClose();
    } catch (error) {
      if (isUnauthorized(error)) return;
      const description = promotionRefusal(error) ?? 'Please try again later.';
      toast({ title: 'Subscription failed', description, variant: 'destructive' });
      if (withOffer.promotionId) offerQuery.refetch();
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="subscribe-dialog-title">
      <DialogTitle id="subscribe-dialog-title">Subscribe to {creator?.name}</DialogTitle>
      <DialogContent>
        <Typography color="textSecondary" sx={{ mb: 2 }}>
          Choose a tier to unlock {creator?.name}&apos;s subscriber-only posts and message them directly.
        </Typography>
        {promotionId && (
          <OfferNotice
            offer={offerQuery.data?.creatorId === creator?.id ? offerQuery.data : undefined}
            failed={offerQuery.isError || (!!offerQuery.data && offerQuery.data.creatorId !== creator?.id)}
          />
        )}
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {isLoading || !tiers
            ? [0, 1, 2].map((i) => <Skeleton key={i} variant="rounded" height={220} sx={{ flex: 1 }} />)
            : tiers.map((tier) => (
                <Card
                  key={tier.id}
                  variant="outlined"
                  data-testid="tier-card"
                  sx={{
                    flex: 1,
                    borderColor: tier.popular ? 'secondary.main' : undefined,
                    borderWidth: tier.popular ? 2 : 1,
                  }}
                >
                  <CardContent>
                    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                      <Typography variant="h6">{tier.name}</Typography>
                      {offer?.tierId === tier.id ? (
                        <Chip size="small" color="success" label="Offer" />
                      ) : (
                        tier.popular && <Chip size="small" color="secondary" label="Most Popular" />
                      )}
                    </Stack>
                    <Typography variant="h5" sx={{ fontWeight: 800, my: 1 }}>
                      {usd(tier.price)}
                      <Typography component="span" color="textSecondary">
                        {' '}
                        / month
                      </Typography>
                    </Typography>
                    {offer?.tierId === tier.id && (
                      <Typography
                        variant="body2"
                        sx={{ fontWeight: 700, color: 'success.main' }}
                        data-testid="tier-offer"
                      >
                        {offerText(offer)}
                      </Typography>
                    )}
                    {tier.description && !tier.popular && (
                      <Typography variant="body2" color="textSecondary">
                        {tier.description}
                      </Typography>
                    )}
                    <Box component="ul" sx={{ listStyle: 'none', p: 0, my: 1.5 }}>
                      {tier.features.map((feature) => (
                        <Stack component="li" key={feature} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Check fontSize="small" color="success" />
                          <Typography variant="body2">{feature}</Typography>
                        </Stack>
                      ))}
                    </Box>
                    <Button
                      fullWidth
                      sx={{ minHeight: 44 }}
                      variant={tier.popular ? 'contained' : 'outlined'}
                      disabled={subscribing}
                      onClick={() => choose(tier.id)}
                    >
                      {subscribing && originalArgs?.tierId === tier.id
                        ? 'Subscribing...'
                        : offer?.tierId === tier.id
                          ? offer.kind === 'trial'
                            ? 'Start free trial'
                            : `Subscribe for ${usd(offer.firstPeriodPrice)}`
                          : `Subscribe to ${tier.name}`}
                    </Button>
                  </CardContent>
                </Card>
              ))}
        </Stack>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 2, textAlign: 'center' }}>
          7-day money-back guarantee. Cancel anytime. Charged monthly to your card on file.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
