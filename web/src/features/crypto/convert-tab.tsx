import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { nanoid } from '@reduxjs/toolkit';
import { useState } from 'react';
import { CRYPTO_TYPES, type ConversionPreview, type CryptoType } from '@contracts/crypto';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import {
  shortAddress,
  useCalculateConversionMutation,
  useConvertCryptoMutation,
  useCryptoWalletsQuery,
} from './crypto-api';

export const MINIMUM_WARNING = 'Minimum conversion is $10 USD after fees. Please increase your crypto amount';

function PreviewRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', py: 0.5 }}>
      <Typography color={strong ? 'textPrimary' : 'textSecondary'} sx={{ fontWeight: strong ? 700 : 400 }}>
        {label}
      </Typography>
      <Typography sx={{ fontWeight: strong ? 700 : 500 }}>{value}</Typography>
    </Stack>
  );
}

/** Convert (SPEC §2, §4, §5): type, amount, address, Calculate Conversion, preview, Confirm Conversion. */
export function ConvertTab({ onInitiated }: { onInitiated?: (conversionId: number) => void } = {}) {
  const [cryptoType, setCryptoType] = useState<CryptoType>('USDC');
  const [amount, setAmount] = useState('');
  const [walletAddress, setWalletAddress] = useState('');
  const [preview, setPreview] = useState<(ConversionPreview & { key: string }) | null>(null);
  const [initiated, setInitiated] = useState<string | null>(null);
  const { data: wallets } = useCryptoWalletsQuery();
  const [calculate, calculating] = useCalculateConversionMutation();
  const [convert, converting] = useConvertCryptoMutation();

  const onCalculate = async () => {
    setInitiated(null);
    const value = Number(amount);
    if (!amount.trim() || !Number.isFinite(value) || value <= 0) {
      toast({ title: 'Invalid Amount', description: 'Please enter a valid crypto amount', variant: 'destructive' });
      return;
    }
    try {
      const result = await calculate({ cryptoAmount: amount.trim(), cryptoType }).unwrap();
      setPreview({ ...result, key: nanoid() });
    } catch (error) {
      setPreview(null);
      toast({
        title: 'Calculation Error',
        description: serverErrorText(error) ?? 'Failed to calculate conversion',
        variant: 'destructive',
      });
    }
  };

  const onConfirm = async () => {
    if (!preview || !walletAddress.trim()) {
      toast({
        title: 'Incomplete Information',
        description: 'Please calculate preview and enter wallet address',
        variant: 'destructive',
      });
      return;
    }
    try {
      const result = await convert({
        cryptoAmount: preview.cryptoAmount,
        cryptoType: preview.cryptoType,
        walletAddress: walletAddress.trim(),
        idempotencyKey: preview.key,
      }).unwrap();
      setAmount('');
      setPreview(null);
      setInitiated(result.message);
      onInitiated?.(result.conversionId);
      toast({ title: 'Conversion Initiated', description: result.message });
    } catch (error) {
      toast({
        title: 'Conversion Failed',
        description: serverErrorText(error) ?? 'Failed to process conversion',
        variant: 'destructive',
      });
    }
  };

  return (
    <Stack spacing={2.5}>
      <Box>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Cryptocurrency
        </Typography>
        <ToggleButtonGroup
          exclusive
          color="primary"
          value={cryptoType}
          onChange={(_event, value: CryptoType | null) => {
            if (value) {
              setCryptoType(value);
              setPreview(null);
            }
          }}
        >
          {CRYPTO_TYPES.map((type) => (
            <ToggleButton key={type} value={type} sx={{ px: 3 }}>
              {type}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <TextField
        label={`Amount (${cryptoType})`}
        type="number"
        value={amount}
        onChange={(event) => {
          setAmount(event.target.value);
          setPreview(null);
        }}
        slotProps={{ htmlInput: { step: '0.000001', min: 0, 'data-testid': 'crypto-amount' } }}
        helperText="Up to 8 decimal places. Minimum $10 USD after the 3% service fee."
        fullWidth
      />
      <TextField
        label="Your wallet address"
        value={walletAddress}
        onChange={(event) => setWalletAddress(event.target.value)}
        placeholder="0x..."
        slotProps={{ htmlInput: { 'data-testid': 'wallet-address' } }}
        fullWidth
      />
      {!!wallets?.length && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
          <Typography variant="body2" color="textSecondary">
            Registered:
          </Typography>
          {wallets.map((wallet) => (
            <Chip
              key={wallet.id}
              label={`${wallet.cryptoType} ${shortAddress(wallet.walletAddress)}`}
              onClick={() => setWalletAddress(wallet.walletAddress)}
              size="small"
            />
          ))}
        </Stack>
      )}
      <Button variant="outlined" size="large" onClick={onCalculate} disabled={calculating.isLoading}>
        {calculating.isLoading ? 'Calculating...' : 'Calculate Conversion'}
      </Button>

      {preview && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="conversion-preview">
          <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
            Conversion Preview
          </Typography>
          <PreviewRow label="Amount" value={`${preview.cryptoAmount} ${preview.cryptoType}`} />
          <PreviewRow label="Exchange rate" value={`$${preview.exchangeRate}`} />
          <PreviewRow label="Gross USD" value={`$${preview.grossUsdAmount}`} />
          <PreviewRow label={`Service fee (${preview.serviceFeePercent}%)`} value={`-$${preview.serviceFeeAmount}`} />
          <Divider sx={{ my: 1 }} />
          <PreviewRow label="You receive" value={`$${preview.netUsdAmount}`} strong />
          {preview.isValidMinimum ? (
            <Button
              variant="contained"
              size="large"
              fullWidth
              sx={{ mt: 2 }}
              onClick={onConfirm}
              disabled={converting.isLoading}
            >
              {converting.isLoading ? 'Processing...' : 'Confirm Conversion'}
            </Button>
          ) : (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="minimum-warning">
              {MINIMUM_WARNING}
            </Alert>
          )}
        </Paper>
      )}

      {initiated && (
        <Alert severity="success" onClose={() => setInitiated(null)} data-testid="conversion-initiated">
          <AlertTitle>Conversion Initiated</AlertTitle>
          {initiated}. Your balance updates as soon as the deposit is confirmed.
        </Alert>
      )}
    </Stack>
  );
}
