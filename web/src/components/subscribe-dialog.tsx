import Check from '@mui/icons-material/Check';
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
import { toast } from './toast';
import { isUnauthorized } from '@/lib/api';
import { usd } from '@/lib/format';
import { useSubscribeToCreatorMutation, useTiersQuery } from '@/lib/creators-api';

/** The tier dialog (SPEC §2 Creator profile): tiers, a 7-day money-back promise, cancel anytime. */
export function SubscribeDialog({
  creator,
  open,
  onClose,
}: {
  creator: Creator | null;
  open: boolean;
  onClose: () => void;
}) {
  const { data: tiers, isLoading } = useTiersQuery(creator?.id ?? '', { skip: !creator || !open });
  const [subscribe, { isLoading: subscribing, originalArgs }] = useSubscribeToCreatorMutation();

  const choose = async (tierId: string) => {
    if (!creator) return;
    try {
      await subscribe({ creatorId: creator.id, tierId }).unwrap();
      toast({ title: 'Subscription successful!', description: "Welcome to the creator's community!" });
      onClose();
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ title: 'Subscription failed', description: 'Please try again later.', variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="subscribe-dialog-title">
      <DialogTitle id="subscribe-dialog-title">Subscribe to {creator?.name}</DialogTitle>
      <DialogContent>
        <Typography color="textSecondary" sx={{ mb: 2 }}>
          Choose a tier to unlock {creator?.name}&apos;s subscriber-only posts and message them directly.
        </Typography>
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
                      {tier.popular && <Chip size="small" color="secondary" label="Most Popular" />}
                    </Stack>
                    <Typography variant="h5" sx={{ fontWeight: 800, my: 1 }}>
                      {usd(tier.price)}
                      <Typography component="span" color="textSecondary">
                        {' '}
                        / month
                      </Typography>
                    </Typography>
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
                      variant={tier.popular ? 'contained' : 'outlined'}
                      disabled={subscribing}
                      onClick={() => choose(tier.id)}
                    >
                      {subscribing && originalArgs?.tierId === tier.id ? 'Subscribing...' : `Subscribe to ${tier.name}`}
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
