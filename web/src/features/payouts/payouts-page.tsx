import AccountBalance from '@mui/icons-material/AccountBalance';
import AccessTime from '@mui/icons-material/AccessTime';
import Add from '@mui/icons-material/Add';
import CalendarMonth from '@mui/icons-material/CalendarMonth';
import LockOutlined from '@mui/icons-material/LockOutlined';
import TrendingUp from '@mui/icons-material/TrendingUp';
import Payments from '@mui/icons-material/Payments';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PAYOUT_HISTORY_SHOWN, type PaymentAccountView, type PayoutView } from '@contracts/payouts';
import { useCurrentUser } from '@/lib/current-user';
import { AddPaymentAccountDialog } from './add-payment-account-dialog';
import { formatDateTime, usd } from '@/lib/format';
import {
  monthDay,
  payoutStatus,
  usePaymentAccountsQuery,
  usePayoutDashboardQuery,
  usePayoutsQuery,
} from './payouts-api';
import { accountLabel, WithdrawDialog } from './withdraw-dialog';
import { useDocumentTitle } from '@/lib/use-document-title';

const STATUS_COLOR = {
  pending: 'warning',
  processing: 'info',
  completed: 'success',
  failed: 'error',
  cancelled: 'default',
} as const;

function StatCard({
  title,
  value,
  icon,
  loading,
}: {
  title: string;
  value: string;
  icon: ReactNode;
  loading: boolean;
}) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="body2" color="textSecondary" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <Box sx={{ color: 'text.secondary', display: 'flex' }}>{icon}</Box>
        </Stack>
        {loading ? (
          <Skeleton width={90} height={40} />
        ) : (
          <Typography
            variant="h5"
            sx={{ fontWeight: 800 }}
            data-testid={`stat-${title.toLowerCase().replace(/ /g, '-')}`}
          >
            {value}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function AccountRow({ account }: { account: PaymentAccountView }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', py: 1.5, flexWrap: 'wrap', rowGap: 1 }}
      data-testid="payment-account"
    >
      <AccountBalance color="action" />
      <Box sx={{ flex: 1, minWidth: 160 }}>
        <Typography sx={{ fontWeight: 600 }}>{accountLabel(account)}</Typography>
        {account.routingNumber && (
          <Typography variant="body2" color="textSecondary">
            Routing {account.routingNumber}
          </Typography>
        )}
      </Box>
      {account.isDefault && <Chip size="small" color="primary" label="Default" />}
      <VerificationChip account={account} />
    </Stack>
  );
}

/** SPEC §4: verified or pending verification; an account the payout processor refused says so. */
function VerificationChip({ account }: { account: PaymentAccountView }) {
  if (account.verificationStatus === 'failed') {
    return (
      <Chip
        size="small"
        variant="outlined"
        color="error"
        label="Verification Failed"
        title={account.verificationFailureReason ?? undefined}
        data-testid="verification-status"
      />
    );
  }
  const verified = account.verificationStatus === 'verified';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={verified ? 'success' : 'warning'}
      label={verified ? 'Verified' : 'Pending Verification'}
      data-testid="verification-status"
    />
  );
}

/** While an account waits for the payout processor, its status is re-read this often. */
const VERIFICATION_POLL_MS = 3000;

function PayoutRow({ payout }: { payout: PayoutView }) {
  const status = payoutStatus(payout.status);
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', py: 1.5 }} data-testid="payout-row">
      <Box sx={{ flex: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>{usd(payout.amount)}</Typography>
        <Typography variant="body2" color="textSecondary">
          Net {usd(payout.netAmount)} · {formatDateTime(payout.createdAt)}
        </Typography>
      </Box>
      <Chip
        size="small"
        color={STATUS_COLOR[status]}
        label={status}
        sx={{ textTransform: 'capitalize' }}
        data-testid="payout-status"
      />
    </Stack>
  );
}

function CreatorAccessRequired() {
  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Card>
        <CardContent sx={{ textAlign: 'center', py: 6 }}>
          <LockOutlined sx={{ fontSize: 48, color: 'text.secondary', mb: 2 }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
            Creator Access Required
          </Typography>
          <Typography color="textSecondary" sx={{ mb: 3 }}>
            You need to be a creator to access payouts. Register as a creator to start earning.
          </Typography>
          <Button variant="contained" component={RouterLink} to="/dashboard">
            Become a Creator
          </Button>
        </CardContent>
      </Card>
    </Container>
  );
}

/** Payouts (/payouts, SPEC §2): the 90/10 split, balances, payment accounts and payout history. */
export function PayoutsPage() {
  useDocumentTitle('Payouts');
  const { user } = useCurrentUser();
  if (!user?.isCreator) return <CreatorAccessRequired />;
  return <CreatorPayouts userId={user.id} />;
}

function CreatorPayouts({ userId }: { userId: string }) {
  const dashboard = usePayoutDashboardQuery(userId);
  const [verifying, setVerifying] = useState(false);
  const accounts = usePaymentAccountsQuery(userId, { pollingInterval: verifying ? VERIFICATION_POLL_MS : 0 });
  const pending = !!accounts.data?.some((account) => account.verificationStatus === 'pending');
  if (pending !== verifying) setVerifying(pending);
  const payouts = usePayoutsQuery(userId);
  const [adding, setAdding] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const available = dashboard.data?.availableBalance ?? '0.00';
  const accountList = accounts.data ?? [];
  const history = payouts.data ?? [];
  const shown = showAll ? history : history.slice(0, PAYOUT_HISTORY_SHOWN);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 4 }}
      >
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            Payouts
          </Typography>
          <Typography color="textSecondary">You keep 90% of your earnings; the platform keeps a 10% fee.</Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" startIcon={<Add />} onClick={() => setAdding(true)}>
            Add Payment Account
          </Button>
          <Button
            variant="contained"
            startIcon={<Payments />}
            onClick={() => setWithdrawing(true)}
            disabled={!(Number(available) > 0) || accountList.length === 0}
          >
            Withdraw Earnings
          </Button>
        </Stack>
      </Stack>

      <Grid container spacing={2} sx={{ mb: 4 }}>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            title="Available Balance"
            value={usd(dashboard.data?.availableBalance)}
            icon={<AccountBalance />}
            loading={dashboard.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            title="Pending Balance"
            value={usd(dashboard.data?.pendingBalance)}
            icon={<AccessTime />}
            loading={dashboard.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            title="Total Earnings"
            value={usd(dashboard.data?.totalEarnings)}
            icon={<TrendingUp />}
            loading={dashboard.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            title="Next Payout"
            value={monthDay(dashboard.data?.nextPayoutDate)}
            icon={<CalendarMonth />}
            loading={dashboard.isLoading}
          />
        </Grid>
      </Grid>

      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardHeader title="Payment Accounts" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
            <Divider />
            <CardContent>
              {accounts.isLoading ? (
                <Skeleton height={60} />
              ) : accountList.length === 0 ? (
                <Typography color="textSecondary" sx={{ py: 2, textAlign: 'center' }}>
                  No payment accounts added yet
                </Typography>
              ) : (
                <Stack divider={<Divider flexItem />}>
                  {accountList.map((account) => (
                    <AccountRow key={account.id} account={account} />
                  ))}
                </Stack>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardHeader title="Payout History" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
            <Divider />
            <CardContent>
              {payouts.isLoading ? (
                <Skeleton height={60} />
              ) : history.length === 0 ? (
                <Typography color="textSecondary" sx={{ py: 2, textAlign: 'center' }}>
                  No payouts requested yet
                </Typography>
              ) : (
                <Stack divider={<Divider flexItem />}>
                  {shown.map((payout) => (
                    <PayoutRow key={payout.id} payout={payout} />
                  ))}
                </Stack>
              )}
              {history.length > PAYOUT_HISTORY_SHOWN && (
                <Button fullWidth sx={{ mt: 1 }} onClick={() => setShowAll((all) => !all)}>
                  {showAll ? 'Show Recent Payouts' : 'View All Payouts'}
                </Button>
              )}
            </CardContent>
          </Card>
        </Grid>
      </Grid>

      <AddPaymentAccountDialog open={adding} onClose={() => setAdding(false)} />
      {withdrawing && (
        <WithdrawDialog
          open
          onClose={() => setWithdrawing(false)}
          accounts={accountList}
          availableBalance={available}
        />
      )}
    </Container>
  );
}
