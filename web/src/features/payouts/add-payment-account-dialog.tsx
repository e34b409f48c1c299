import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { paymentAccountSchema } from '@contracts/payouts';
import { toast } from '@/components/toast';
import { useAddPaymentAccountMutation } from './payouts-api';
import { TwoFactorRequiredAlert, twoFactorRequiredText } from './two-factor-required';

type AccountType = 'stripe' | 'bank_account';

/** SPEC §5 payment account form: bank fields only for bank accounts, last-4 at most 4 characters. */
export function AddPaymentAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [type, setType] = useState<AccountType>('stripe');
  const [accountHolderName, setHolder] = useState('');
  const [bankAccountLast4, setLast4] = useState('');
  const [routingNumber, setRouting] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [needsTwoFactor, setNeedsTwoFactor] = useState<string | null>(null);
  const [addAccount, { isLoading }] = useAddPaymentAccountMutation();

  const reset = () => {
    setType('stripe');
    setHolder('');
    setLast4('');
    setRouting('');
    setErrors({});
    setNeedsTwoFactor(null);
  };

  const submit = async () => {
    const body =
      type === 'bank_account'
        ? { type, accountHolderName, bankAccountLast4, routingNumber }
        : { type, accountHolderName };
    const parsed = paymentAccountSchema.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    setErrors({});
    try {
      await addAccount(body).unwrap();
      toast({ title: 'Payment Account Added', description: 'Your payment account has been added.' });
      reset();
      onClose();
    } catch (error) {
      const twoFactor = twoFactorRequiredText(error);
      if (twoFactor) return setNeedsTwoFactor(twoFactor);
      toast({
        title: 'Error',
        description: 'Failed to add payment account. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="add-payment-account-title">
      <DialogTitle id="add-payment-account-title">Add Payment Account</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {needsTwoFactor && <TwoFactorRequiredAlert message={needsTwoFactor} />}
          <TextField
            select
            label="Account Type"
            value={type}
            onChange={(event) => setType(event.target.value as AccountType)}
            slotProps={{ htmlInput: { 'data-testid': 'account-type' } }}
          >
            <MenuItem value="stripe">Stripe</MenuItem>
            <MenuItem value="bank_account">Bank Account</MenuItem>
          </TextField>
          <TextField
            label="Account Holder Name"
            value={accountHolderName}
            onChange={(event) => setHolder(event.target.value)}
            error={!!errors.accountHolderName}
            helperText={errors.accountHolderName}
            required
          />
          {type === 'bank_account' && (
            <>
              <TextField
                label="Last 4 Digits"
                value={bankAccountLast4}
                onChange={(event) => setLast4(event.target.value)}
                error={!!errors.bankAccountLast4}
                helperText={errors.bankAccountLast4}
                slotProps={{ htmlInput: { maxLength: 4, inputMode: 'numeric' } }}
              />
              <TextField
                label="Routing Number"
                value={routingNumber}
                onChange={(event) => setRouting(event.target.value)}
                error={!!errors.routingNumber}
                helperText={errors.routingNumber}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 9 } }}
              />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={isLoading}>
          {isLoading ? 'Adding...' : 'Add Account'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
