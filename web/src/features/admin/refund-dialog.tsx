import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import type { RefundRequest } from '@contracts/admin';
import { formatCents, parseCents, UNSIGNED_CENTS } from '@contracts/money';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { useRefundPaymentMutation } from './admin-api';

type Row = Record<string, unknown>;

/** What refunding `cents` leaves of a payments row (the server's answer names the new totals). */
function afterRefund(payment: Row, refundedTotal: string, full: boolean): Row {
  const left = (parseCents(String(payment.amount)) ?? 0) - (parseCents(refundedTotal) ?? 0);
  return {
    ...payment,
    refunded: refundedTotal,
    refundable: formatCents(Math.max(0, left)),
    status: full ? 'refunded' : 'partially_refunded',
  };
}

/** Finance staff refund a card charge in full or in part, with a reason (POST /api/admin/payments/:id/refund). */
export function RefundDialog({
  payment,
  open,
  onClose,
  onRefunded,
}: {
  payment: Row;
  open: boolean;
  onClose: () => void;
  onRefunded: (row: Row) => void;
}) {
  const refundable = String(payment.refundable ?? '0.00');
  const [amount, setAmount] = useState(refundable);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refund, { isLoading }] = useRefundPaymentMutation();

  const cents = parseCents(amount, UNSIGNED_CENTS);
  const maxCents = parseCents(refundable) ?? 0;
  const amountError =
    cents === null || cents <= 0
      ? 'Enter an amount like 1.50'
      : cents > maxCents
        ? `At most $${refundable} can be refunded`
        : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (amountError || !reason.trim() || cents === null) return;
    setError(null);
    // The whole rest is sent without an amount: the server refunds exactly what is left.
    const body: RefundRequest =
      cents === maxCents ? { reason: reason.trim() } : { amountCents: cents, reason: reason.trim() };
    try {
      const result = await refund({ id: String(payment.id), ...body }).unwrap();
      toast({
        title: 'Refund issued',
        description: `$${result.amount} refunded${result.full ? ': nothing is left on this payment.' : '.'}`,
      });
      onRefunded(afterRefund(payment, result.refundedTotal, result.full));
      setReason('');
      onClose();
    } catch (failure) {
      setError(serverErrorText(failure) ?? 'The refund could not be made.');
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="refund-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="refund-title">Refund payment</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2" color="textSecondary">
              Charged ${String(payment.amount)}; refundable ${refundable}. The member gets the money back on their card;
              a creator sale also takes back the creator&apos;s share.
            </Typography>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Amount"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              inputMode="decimal"
              required
              error={amount !== '' && amountError !== null}
              helperText={amountError ?? `Up to $${refundable}`}
              slotProps={{
                input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                htmlInput: { inputMode: 'decimal' },
              }}
            />
            <TextField
              label="Reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} sx={{ minHeight: 44 }}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            disabled={isLoading || amountError !== null || !reason.trim()}
            sx={{ minHeight: 44 }}
          >
            {isLoading ? 'Refunding...' : `Refund $${cents !== null && !amountError ? formatCents(cents) : '0.00'}`}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
