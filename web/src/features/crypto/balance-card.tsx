import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { type CryptoBalance } from '@contracts/crypto';
import { parseCents } from '@contracts/money';

/** The green Available Balance card (SPEC §2), shown only when the USD balance is above 0. */
export function BalanceCard({ balance }: { balance: CryptoBalance | undefined }) {
  if (!balance || (parseCents(balance.totalUsd) ?? 0) <= 0) return null;
  const count = balance.conversions.length;
  return (
    <Card data-testid="balance-card" sx={{ bgcolor: 'success.main', color: 'success.contrastText' }}>
      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <AccountBalanceWallet sx={{ fontSize: 40 }} />
        <Box>
          <Typography variant="body2">Available Balance</Typography>
          <Typography variant="h4" component="p" sx={{ fontWeight: 800 }} data-testid="balance-total">
            ${balance.totalUsd}
          </Typography>
          <Typography variant="body2">
            From {count} {count === 1 ? 'conversion' : 'conversions'} · usable for your membership
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}
