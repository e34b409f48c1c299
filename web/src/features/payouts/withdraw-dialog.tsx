import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { payoutFee, type PaymentAccountView } from '@contracts/payouts';
import { toast } from '@/components/toast';
import { usd } from '@/lib/format';
import { useRequestPayoutMutation } from './payouts-api';
import { IdentityRequiredAlert } from '@/components/identity-required-alert';
import { identityRequiredText } from '@/lib/verification-api';
import { TwoFactorRequiredAlert, twoFactorRequiredText } from './two-factor-required';

export const accountLabel = (account: PaymentAccountView) =>
  account.type === 'bank_account'
    ? `Bank Account${account.bankAccountLast4 ? ` ••••${account.bankAccountLast4}` : ''} (${account.accountHolderName})`
    : `Stripe (${account.accountHolderName})`;

/** The API's refusals for a payout to an account that is not verified. */
const UNVERIFIED = {
  pending: 'This payment account is pending verification',
  failed: 'This payment account could not be verified',
} as const;

/** SPEC §5 Withdraw: a selected payment account, a balance above 0, and always the whole available balance. */
export function WithdrawDialog({
  open,
  onClose,
  accounts,
  availableBalance,
}: {
  open: boolean;
  onClose: () => void;
  accounts: PaymentAccountView[];
  availableBalance: string;
}) {
  const defaultAccount = accounts.find((account) => account.isDefault) ?? accounts[0];
  const [chosen, setChosen] = useState<string>('');
  const accountId = chosen || defaultAccount?.id || '';
  // One key per dialog opening: a double click or a retried request pays out once.
  const idempotencyKey = useMemo(() => (open ? crypto.randomUUID() : ''), [open]);
  const [requestPayout, { isLoading }] = useRequestPayoutMutation();
  const [needsTwoFactor, setNeedsTwoFactor] = useState<string | null>(null);
  const [needsIdentity, setNeedsIdentity] = useState<string | null>(null);
  const account = accounts.find((candidate) => candidate.id === accountId);
  // The server refuses payouts to accounts the payout processor has not verified: say so here.
  const unverified =
    account && account.verificationStatus !== 'verified' ? UNVERIFIED[account.verificationStatus] : null;
  const canWithdraw = !!accountId && !unverified && Number(availableBalance) > 0;
  const fee = payoutFee(Math.round(Number(availableBalance) * 100) || 0);

  const submit = async () => {
    try {
      await requestPayout({ paymentAccountId: accountId, amount: availableBalance, idempotencyKey }).unwrap();
      toast({ title: 'Payout Requested', description: 'Your payout request has been submitted for processing.' });
      onClose();
    } catch (error) {
      const twoFactor = twoFactorRequiredText(error);
      if (twoFactor) return setNeedsTwoFactor(twoFactor);
      const identity = identityRequiredText(error);
      if (identity) return setNeedsIdentity(identity);
      toast({ title: 'Error', description: 'Failed to request payout. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="withdraw-title">
      <DialogTitle id="withdraw-title">Withdraw Earnings</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {needsTwoFactor && <TwoFactorRequiredAlert message={needsTwoFactor} />}
          {needsIdentity && <IdentityRequiredAlert message={needsIdentity} />}
          {accounts.length === 0 ? (
            <Alert severity="info">Add a payment account before withdrawing.</Alert>
          ) : (
            <TextField
              select
              label="Payment Account"
              value={accountId}
              onChange={(event) => setChosen(event.target.value)}
            >
              {accounts.map((account) => (
                <MenuItem key={account.id} value={account.id}>
                  {accountLabel(account)}
                  {account.verificationStatus === 'verified'
                    ? ''
                    : account.verificationStatus === 'failed'
                      ? ' (verification failed)'
                      : ' (pending verification)'}
                </MenuItem>
              ))}
            </TextField>
          )}
          {unverified && (
            <Alert severity="warning" data-testid="account-unverified">
              {unverified}
            </Alert>
          )}
          <TextField
            label="Amount"
            value={usd(availableBalance)}
            slotProps={{ input: { readOnly: true } }}
            helperText="The entire available balance is withdrawn."
          />
          {Number(availableBalance) > 0 && (
            <Typography variant="body2" color="textSecondary">
              Processing fee {usd(fee.processingFeeCents / 100)}: you receive {usd(fee.netAmountCents / 100)}.
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={!canWithdraw || isLoading}>
          {isLoading ? 'Requesting...' : 'Request Payout'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
