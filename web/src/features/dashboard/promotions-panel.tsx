import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  createPromotionSchema,
  type PromotionKind,
  type PromotionStatus,
  type PromotionView,
} from '@contracts/promotions';
import { toast } from '@/components/toast';
import { isUnauthorized, serverErrorText } from '@/lib/api';
import { useTiersQuery } from '@/lib/creators-api';
import { formatDate } from '@/lib/format';
import { useCreatePromotionMutation, useEndPromotionMutation, useMyPromotionsQuery } from './promotions-api';

const STATUS_LABELS: Record<PromotionStatus, { label: string; color: 'success' | 'default' | 'warning' }> = {
  active: { label: 'Active', color: 'success' },
  used_up: { label: 'Fully redeemed', color: 'warning' },
  expired: { label: 'Expired', color: 'default' },
  ended: { label: 'Ended', color: 'default' },
};

/** "7-day free trial" or "50% off the first month". */
const termsText = (promotion: Pick<PromotionView, 'kind' | 'trialDays' | 'percentOff'>) =>
  promotion.kind === 'trial' ? `${promotion.trialDays}-day free trial` : `${promotion.percentOff}% off the first month`;

/** The link members open: the creator page with the subscribe dialog showing the offer. */
const shareLink = (promotion: Pick<PromotionView, 'id' | 'creatorId'>) =>
  `${window.location.origin}/creator/${promotion.creatorId}?promo=${promotion.id}`;

interface PromotionForm {
  tierId: string;
  kind: PromotionKind;
  trialDays: string;
  percentOff: string;
  maxRedemptions: string;
  endsOn: string;
}

/** A date input's value `days` from today (local time). */
function dayFromNow(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

const emptyForm = (tierId: string): PromotionForm => ({
  tierId,
  kind: 'trial',
  trialDays: '7',
  percentOff: '50',
  maxRedemptions: '100',
  endsOn: dayFromNow(30),
});

/** The request of a form: a whole number where one is asked (else NaN, which the schema refuses), ending at that day's end. */
function requestOf(form: PromotionForm) {
  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);
  const endsAt = form.endsOn ? new Date(`${form.endsOn}T23:59:59`).toISOString() : '';
  const common = { tierId: form.tierId, maxRedemptions: whole(form.maxRedemptions), endsAt };
  return form.kind === 'trial'
    ? { kind: 'trial' as const, trialDays: whole(form.trialDays), ...common }
    : { kind: 'discount' as const, percentOff: whole(form.percentOff), ...common };
}

function PromotionRow({ promotion }: { promotion: PromotionView }) {
  const [end, ending] = useEndPromotionMutation();
  const status = STATUS_LABELS[promotion.status];
  const running = promotion.status === 'active' || promotion.status === 'used_up';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shareLink(promotion));
      toast({ title: 'Copied', description: 'Share link copied to clipboard' });
    } catch {
      toast({ title: 'Error', description: `Copy this link: ${shareLink(promotion)}`, variant: 'destructive' });
    }
  };
  const endNow = async () => {
    try {
      await end(promotion.id).unwrap();
      toast({ title: 'Promotion ended', description: 'Its link no longer offers anything.' });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: serverErrorText(error) ?? 'Failed to end the promotion.',
          variant: 'destructive',
        });
    }
  };

  return (
    <Stack
      component="li"
      data-testid="promotion-row"
      spacing={1}
      sx={{ py: 1.5, borderTop: 1, borderColor: 'divider', listStyle: 'none' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {promotion.tierName} · {termsText(promotion)}
        </Typography>
        <Chip size="small" label={status.label} color={status.color} />
      </Stack>
      <Typography variant="body2" color="textSecondary">
        {promotion.redemptions} of {promotion.maxRedemptions} redeemed · {promotion.remaining} left ·{' '}
        {promotion.endedAt ? `ended ${formatDate(promotion.endedAt)}` : `ends ${formatDate(promotion.endsAt)}`}
      </Typography>
      {running && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ '& .MuiButton-root': { minHeight: 44 } }}>
          <Button variant="outlined" startIcon={<ContentCopy />} onClick={copy}>
            Copy share link
          </Button>
          <Button color="error" onClick={endNow} disabled={ending.isLoading}>
            {ending.isLoading ? 'Ending...' : 'End promotion'}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** Dashboard panel (issue 21): the creator's trials and first-month discounts, each shared as a link. */
export function PromotionsPanel({ creatorId }: { creatorId: string }) {
  const { data: promotions = [], isLoading } = useMyPromotionsQuery();
  const { data: tiers = [] } = useTiersQuery(creatorId);
  const [create, creating] = useCreatePromotionMutation();
  const [form, setForm] = useState<PromotionForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (changes: Partial<PromotionForm>) => setForm((current) => current && { ...current, ...changes });

  const open = () => {
    setErrors({});
    setForm(emptyForm(tiers[0]?.id ?? ''));
  };
  const save = async () => {
    if (!form) return;
    const request = requestOf(form);
    const parsed = createPromotionSchema.safeParse(request);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    try {
      await create(parsed.data).unwrap();
      toast({ title: 'Promotion created', description: 'Copy its share link to send it around.' });
      setForm(null);
    } catch (error) {
      if (isUnauthorized(error)) return;
      const fields = (error as { bodyJson?: { fields?: Record<string, string> } }).bodyJson?.fields;
      if (fields) setErrors(fields);
      else
        toast({
          title: 'Error',
          description: serverErrorText(error) ?? 'Failed to create the promotion.',
          variant: 'destructive',
        });
    }
  };

  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="promotions-panel">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
          <Typography variant="h6" component="h2">
            Promotions
          </Typography>
          <Button startIcon={<Add />} onClick={open} disabled={tiers.length === 0} sx={{ minHeight: 44 }}>
            New Promotion
          </Button>
        </Stack>
        <Typography variant="body2" color="textSecondary">
          A free trial or a first-month discount on a tier, limited in number and time. Renewals are at the tier&apos;s
          price; each member gets one free trial from you.
        </Typography>
        {!isLoading && promotions.length === 0 ? (
          <Typography color="textSecondary" sx={{ py: 2, textAlign: 'center' }}>
            No promotions yet
          </Typography>
        ) : (
          <Stack component="ul" sx={{ p: 0, m: 0, mt: 1 }}>
            {promotions.map((promotion) => (
              <PromotionRow key={promotion.id} promotion={promotion} />
            ))}
          </Stack>
        )}
      </CardContent>
      <Dialog open={form !== null} onClose={() => setForm(null)} fullWidth maxWidth="xs">
        <DialogTitle>New Promotion</DialogTitle>
        {form && (
          <DialogContent>
            <Stack spacing={2} sx={{ mt: 1 }}>
              <TextField
                select
                label="Tier"
                value={form.tierId}
                onChange={(e) => set({ tierId: e.target.value })}
                error={Boolean(errors.tierId)}
                helperText={errors.tierId}
              >
                {tiers.map((tier) => (
                  <MenuItem key={tier.id} value={tier.id}>
                    {tier.name}
                  </MenuItem>
                ))}
              </TextField>
              <ToggleButtonGroup
                exclusive
                fullWidth
                color="primary"
                value={form.kind}
                onChange={(_e, kind: PromotionKind | null) => kind && set({ kind })}
                aria-label="Kind of promotion"
              >
                <ToggleButton value="trial" sx={{ minHeight: 44 }}>
                  Free trial
                </ToggleButton>
                <ToggleButton value="discount" sx={{ minHeight: 44 }}>
                  First-month discount
                </ToggleButton>
              </ToggleButtonGroup>
              {form.kind === 'trial' ? (
                <TextField
                  label="Trial days (1 to 90)"
                  inputMode="numeric"
                  value={form.trialDays}
                  onChange={(e) => set({ trialDays: e.target.value })}
                  error={Boolean(errors.trialDays)}
                  helperText={errors.trialDays}
                />
              ) : (
                <TextField
                  label="Percent off the first month (5 to 90)"
                  inputMode="numeric"
                  value={form.percentOff}
                  onChange={(e) => set({ percentOff: e.target.value })}
                  error={Boolean(errors.percentOff)}
                  helperText={errors.percentOff}
                />
              )}
              <TextField
                label="How many members can redeem it"
                inputMode="numeric"
                value={form.maxRedemptions}
                onChange={(e) => set({ maxRedemptions: e.target.value })}
                error={Boolean(errors.maxRedemptions)}
                helperText={errors.maxRedemptions}
              />
              <TextField
                label="Ends on"
                type="date"
                value={form.endsOn}
                onChange={(e) => set({ endsOn: e.target.value })}
                error={Boolean(errors.endsAt)}
                helperText={errors.endsAt ?? 'The offer ends at the end of this day.'}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </Stack>
          </DialogContent>
        )}
        <DialogActions sx={{ '& .MuiButton-root': { minHeight: 44 } }}>
          <Button onClick={() => setForm(null)}>Cancel</Button>
          <Button variant="contained" onClick={save} disabled={creating.isLoading}>
            {creating.isLoading ? 'Creating...' : 'Create Promotion'}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
