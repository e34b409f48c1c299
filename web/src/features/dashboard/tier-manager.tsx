import Edit from '@mui/icons-material/Edit';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { tierSchema, type Tier } from '@contracts/creators';
import { toast } from '@/components/toast';
import { isUnauthorized } from '@/lib/api';
import { usd } from '@/lib/format';
import { useCreateTierMutation, useTiersQuery, useUpdateTierMutation } from '@/lib/creators-api';

interface TierForm {
  name: string;
  description: string;
  price: string;
  features: string;
}
const EMPTY: TierForm = { name: '', description: '', price: '', features: '' };

/** The creator's subscription tiers: the fallback ones are shown until the first is created. */
export function TierManager({ creatorId }: { creatorId: string }) {
  const { data: tiers = [] } = useTiersQuery(creatorId);
  const [createTier, creating] = useCreateTierMutation();
  const [updateTier, updating] = useUpdateTierMutation();
  const [editing, setEditing] = useState<Tier | 'new' | null>(null);
  const [form, setForm] = useState<TierForm>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const usingDefaults = tiers.length > 0 && tiers.every((tier) => tier.isDefault);

  const open = (tier: Tier | 'new') => {
    setEditing(tier);
    setErrors({});
    setForm(
      tier === 'new'
        ? EMPTY
        : { name: tier.name, description: tier.description, price: tier.price, features: tier.features.join('\n') },
    );
  };

  const save = async () => {
    const input = {
      name: form.name,
      description: form.description,
      price: form.price,
      features: form.features
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    };
    const parsed = tierSchema.safeParse(input);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    try {
      if (editing === 'new' || editing?.isDefault) await createTier({ creatorId, tier: input }).unwrap();
      else if (editing) await updateTier({ creatorId, tierId: editing.id, tier: input }).unwrap();
      toast({ title: 'Tier saved', description: `${input.name} is available to your subscribers.` });
      setEditing(null);
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to save tier. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h6">Subscription Tiers</Typography>
          <Button startIcon={<Add />} onClick={() => open('new')}>
            Add Tier
          </Button>
        </Stack>
        {usingDefaults && (
          <Typography variant="body2" color="textSecondary">
            Members currently see the default tiers below. Add your own tier to replace them.
          </Typography>
        )}
        <List dense>
          {tiers.map((tier) => (
            <ListItem
              key={tier.id}
              secondaryAction={
                !tier.isDefault && (
                  <IconButton aria-label={`Edit ${tier.name}`} onClick={() => open(tier)}>
                    <Edit />
                  </IconButton>
                )
              }
            >
              <ListItemText
                primary={
                  <>
                    {tier.name} · {usd(tier.price)}/month{' '}
                    {tier.isDefault && <Chip size="small" label="Default" sx={{ ml: 1 }} />}
                  </>
                }
                secondary={tier.features.join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} fullWidth maxWidth="xs">
        <DialogTitle>{editing === 'new' ? 'New Tier' : 'Edit Tier'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <TextField
              label="Name"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              error={Boolean(errors.name)}
              helperText={errors.name}
            />
            <TextField
              label="Description"
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
            />
            <TextField
              label="Price (USD per month)"
              required
              value={form.price}
              onChange={(e) => setForm({ ...form, price: e.target.value })}
              error={Boolean(errors.price)}
              helperText={errors.price ?? 'e.g. 14.99'}
            />
            <TextField
              label="Features (one per line)"
              multiline
              minRows={3}
              value={form.features}
              onChange={(e) => setForm({ ...form, features: e.target.value })}
              error={Boolean(errors.features)}
              helperText={errors.features}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setEditing(null)}>Cancel</Button>
          <Button variant="contained" disabled={creating.isLoading || updating.isLoading} onClick={save}>
            Save Tier
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
