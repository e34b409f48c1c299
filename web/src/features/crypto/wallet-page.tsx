import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCryptoBalanceQuery } from '@/lib/crypto-balance-api';
import { BalanceCard } from './balance-card';
import { ConvertTab } from './convert-tab';
import { HistoryTab } from './history-tab';
import { RatesCard } from './rates-card';
import { useCryptoConversionsQuery } from './crypto-api';
import { WalletsTab } from './wallets-tab';
import { useDocumentTitle } from '@/lib/use-document-title';

type WalletTab = 'convert' | 'wallets' | 'history';
/** While a conversion settles, its status and the balance are re-read this often. */
const SETTLING_POLL_MS = 1500;

export const WALLET_BACKGROUND = {
  light:
    'linear-gradient(rgba(15,23,42,0.04), rgba(15,23,42,0.04)), radial-gradient(circle at 20% 10%, #dbeafe 0%, #f8fafc 60%)',
  dark: 'linear-gradient(rgba(0,0,0,0.55), rgba(0,0,0,0.55)), radial-gradient(circle at 20% 10%, #1d4ed8 0%, #0f172a 55%)',
};

/** Crypto wallet (/wallet, SPEC §2): rates, the balance, and Convert / Wallets / History. */
export function WalletPage() {
  useDocumentTitle('Crypto Wallet');
  const [tab, setTab] = useState<WalletTab>('convert');
  const [settling, setSettling] = useState(false);
  // The conversion just initiated: polled until the history shows it settled, even if the first
  // read after the command came before the read model had it.
  const [awaited, setAwaited] = useState<number | null>(null);
  const conversions = useCryptoConversionsQuery(undefined, { pollingInterval: settling ? SETTLING_POLL_MS : 0 });
  const balance = useCryptoBalanceQuery(undefined, { pollingInterval: settling ? SETTLING_POLL_MS : 0 });
  const awaitedRecord = conversions.data?.find((record) => record.id === awaited);
  // A completed conversion is credited by a later step: wait until the balance lists it too.
  const credited = !!balance.data?.conversions.some((record) => record.id === awaited);
  const awaitedSettled = awaitedRecord?.status === 'failed' || (awaitedRecord?.status === 'completed' && credited);
  if (awaited && awaitedSettled) setAwaited(null);
  const unsettled =
    !!awaited || !!conversions.data?.some((record) => record.status === 'pending' || record.status === 'processing');
  if (unsettled !== settling) setSettling(unsettled);

  return (
    <Box
      data-testid="wallet-page"
      sx={(theme) => ({
        minHeight: 'calc(100vh - 64px)',
        py: { xs: 3, md: 5 },
        // A soft gradient "background image" (SPEC §2 allows one). The scheme is a class on <html>
        // (CSS variables), so theme.palette.mode is always 'light' here: the dark one is a `.dark` rule.
        background: WALLET_BACKGROUND.light,
        ...theme.applyStyles('dark', { background: WALLET_BACKGROUND.dark }),
      })}
    >
      <Container maxWidth="md">
        <Stack spacing={3}>
          <Box>
            <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
              Crypto Wallet
            </Typography>
            <Typography color="textSecondary">Convert USDC or USDT into a USD balance for your membership.</Typography>
          </Box>
          <RatesCard />
          <BalanceCard balance={balance.data} />
          <Card>
            <Tabs
              value={tab}
              onChange={(_event, value: WalletTab) => setTab(value)}
              variant="fullWidth"
              sx={{ borderBottom: 1, borderColor: 'divider' }}
            >
              <Tab value="convert" label="Convert" />
              <Tab value="wallets" label="Wallets" />
              <Tab value="history" label="History" />
            </Tabs>
            <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
              {tab === 'convert' && <ConvertTab onInitiated={setAwaited} />}
              {tab === 'wallets' && <WalletsTab />}
              {tab === 'history' && (
                <HistoryTab
                  conversions={conversions.data}
                  isLoading={conversions.isLoading}
                  isError={conversions.isError}
                />
              )}
            </CardContent>
          </Card>
        </Stack>
      </Container>
    </Box>
  );
}
