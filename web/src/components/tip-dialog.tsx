import VolunteerActivismOutlined from '@mui/icons-material/VolunteerActivismOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { parseCents } from '@contracts/money';
import { MAX_TIP_CENTS, MIN_TIP_CENTS, TIP_RANGE_TEXT, type TipSource } from '@contracts/tips';
import { errorMessage, isUnauthorized } from '@/lib/api';
import { useCryptoBalanceQuery } from '@/lib/crypto-balance-api';
import { usd, usdShort } from '@/lib/format';
import { useTipMutation } from '@/lib/tips-api';
import { toast } from './toast';

const PRESETS_CENTS = [500, 1000, 2000, 5000];
const CUSTOM = 'custom';

/** The amount typed or picked, in cents; null when it is no amount. */
function amountOf(preset: string, custom: string): number | null {
  if (preset !== CUSTOM) return Number(preset);
  return parseCents(custom, { signed: false, maxDigits: 6 });
}

export interface TipDialogProps {
  open: boolean;
  onClose: () => void;
  creatorId: string;
  creatorName: string;
  /** The post the tip is given on, when opened from a post card. */
  postId?: string;
}

/** Tip a creator (issue 21): a preset or custom amount ($1 to $500), an optional message, by card or from the balance. */
export function TipDialog({ open, onClose, creatorId, creatorName, postId }: TipDialogProps) {
  const [preset, setPreset] = useState(String(PRESETS_CENTS[0]));
  const [custom, setCustom] = useState('');
  const [message, setMessage] = useState('');
  const [source, setSource] = useState<TipSource>('card');
  const [error, setError] = useState<string | null>(null);
  // One key per opened dialog: a retried click never tips twice.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [tip, { isLoading }] = useTipMutation();
  const { data: balance } = useCryptoBalanceQuery(undefined, { skip: !open });

  const cents = amountOf(preset, custom);
  const inRange = cents !== null && cents >= MIN_TIP_CENTS && cents <= MAX_TIP_CENTS;
  const customError = preset === CUSTOM && custom.trim() !== '' && !inRange ? TIP_RANGE_TEXT : null;

  const close = () => {
    setError(null);
    setIdempotencyKey(crypto.randomUUID());
    onClose();
  };

  const send = async () => {
    if (!inRange) return;
    setError(null);
    try {
      await tip({
        creatorId,
        amountCents: cents,
        postId,
        message: message.trim() || null,
        source,
        idempotencyKey,
      }).unwrap();
      toast({ title: 'Tip sent', description: `You tipped ${creatorName} ${usd(cents / 100)}.` });
      setMessage('');
      close();
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(errorMessage(failure));
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="tip-dialog-title">
      <DialogTitle id="tip-dialog-title">Tip {creatorName}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <ToggleButtonGroup
            exclusive
            value={preset}
            onChange={(_event, value: string | null) => value && setPreset(value)}
            aria-label="Tip amount"
            sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(64px, 1fr))' }}
          >
            {PRESETS_CENTS.map((amount) => (
              <ToggleButton key={amount} value={String(amount)} sx={{ minHeight: 44 }}>
                {usdShort(amount / 100)}
              </ToggleButton>
            ))}
            <ToggleButton value={CUSTOM} sx={{ minHeight: 44 }}>
              Other
            </ToggleButton>
          </ToggleButtonGroup>
          {preset === CUSTOM && (
            <TextField
              label="Custom amount"
              value={custom}
              onChange={(event) => setCustom(event.target.value)}
              autoFocus
              inputMode="decimal"
              error={!!customError}
              helperText={customError ?? '$1.00 to $500.00'}
              slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment> } }}
            />
          )}
          <TextField
            label="Message (optional)"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          <RadioGroup
            value={source}
            onChange={(event) => setSource(event.target.value as TipSource)}
            aria-label="Pay with"
          >
            <FormControlLabel value="card" control={<Radio />} label="Card on file" sx={{ minHeight: 44 }} />
            <FormControlLabel
              value="balance"
              control={<Radio />}
              label={`USD balance${balance ? ` (${usd(balance.totalUsd)})` : ''}`}
              sx={{ minHeight: 44 }}
            />
          </RadioGroup>
          <Typography variant="body2" color="textSecondary">
            {creatorName} receives 90% of your tip.
          </Typography>
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} sx={{ minHeight: 44 }}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={send}
          disabled={!inRange || isLoading}
          startIcon={<VolunteerActivismOutlined />}
          sx={{ minHeight: 44 }}
        >
          {inRange ? `Tip ${usd(cents / 100)}` : 'Tip'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
