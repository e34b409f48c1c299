import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { CRYPTO_TYPES, type CryptoType } from '@contracts/crypto';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { shortAddress, useCryptoWalletsQuery, useRegisterWalletMutation } from './crypto-api';

/** Copies text; falls back to a hidden textarea where the Clipboard API is unavailable. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

function RegisterWalletForm({ onDone }: { onDone?: () => void }) {
  const [cryptoType, setCryptoType] = useState<CryptoType>('USDC');
  const [walletAddress, setWalletAddress] = useState('');
  const [register, { isLoading }] = useRegisterWalletMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!walletAddress.trim()) {
      toast({ title: 'Invalid Address', description: 'Please enter a valid wallet address', variant: 'destructive' });
      return;
    }
    try {
      const wallet = await register({ cryptoType, walletAddress: walletAddress.trim() }).unwrap();
      toast({
        title: 'Wallet Created',
        description: `Your ${wallet.cryptoType} wallet ${shortAddress(wallet.walletAddress)} is registered.`,
      });
      setWalletAddress('');
      onDone?.();
    } catch (error) {
      toast({
        title: 'Wallet Creation Failed',
        description: serverErrorText(error) ?? 'Failed to create wallet',
        variant: 'destructive',
      });
    }
  };

  return (
    <Paper component="form" variant="outlined" sx={{ p: 2 }} onSubmit={submit} noValidate>
      <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 2 }}>
        Register a Wallet
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label="Type"
          value={cryptoType}
          onChange={(event) => setCryptoType(event.target.value as CryptoType)}
          sx={{ minWidth: 120 }}
        >
          {CRYPTO_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Wallet address"
          value={walletAddress}
          onChange={(event) => setWalletAddress(event.target.value)}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'new-wallet-address' } }}
        />
      </Stack>
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={isLoading}>
        {isLoading ? 'Registering...' : 'Register Wallet'}
      </Button>
    </Paper>
  );
}

/** Wallets (SPEC §2): the list with a copy-address button, or the registration form when none exist. */
export function WalletsTab() {
  const { data: wallets, isLoading, isError } = useCryptoWalletsQuery();
  const [adding, setAdding] = useState(false);
  if (isLoading) return <Skeleton variant="rounded" height={120} />;
  if (isError || !wallets) return <Alert severity="error">Unable to load your wallets. Please try again later.</Alert>;

  const copy = async (address: string) => {
    await copyText(address);
    toast({ title: 'Copied', description: 'Address copied to clipboard' });
  };

  if (wallets.length === 0) {
    return (
      <Stack spacing={2}>
        <Typography color="textSecondary" sx={{ textAlign: 'center', py: 2 }}>
          No wallets registered yet
        </Typography>
        <RegisterWalletForm />
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      <List disablePadding>
        {wallets.map((wallet) => (
          <ListItem
            key={wallet.id}
            divider
            secondaryAction={
              <Tooltip title="Copy address">
                <IconButton
                  edge="end"
                  aria-label={`Copy address ${shortAddress(wallet.walletAddress)}`}
                  onClick={() => copy(wallet.walletAddress)}
                >
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            }
          >
            <Chip label={wallet.cryptoType} size="small" color="primary" variant="outlined" sx={{ mr: 2 }} />
            <ListItemText
              primary={<span data-testid="wallet-short-address">{shortAddress(wallet.walletAddress)}</span>}
              secondary={`Converted so far: ${wallet.balance} ${wallet.cryptoType}`}
              slotProps={{ primary: { sx: { fontFamily: 'monospace' } } }}
            />
          </ListItem>
        ))}
      </List>
      {adding ? (
        <RegisterWalletForm onDone={() => setAdding(false)} />
      ) : (
        <Button startIcon={<Add />} onClick={() => setAdding(true)} sx={{ alignSelf: 'flex-start' }}>
          Add Wallet
        </Button>
      )}
    </Stack>
  );
}
