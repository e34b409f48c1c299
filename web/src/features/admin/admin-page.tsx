import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { ADMIN_RESOURCES } from '@contracts/admin';
import { useCurrentUser } from '@/lib/current-user';
import { AdminTable } from './admin-table';
import { ReportsPanel } from './reports-panel';
import { VerificationsPanel } from './verifications-panel';
import { RevenueChart } from './revenue-chart';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The finance tables, then the moderation queue (issue 20). */
const TABS = [...ADMIN_RESOURCES, 'reports', 'verifications'] as const;
type AdminTab = (typeof TABS)[number];

const TITLES: Record<AdminTab, string> = {
  payouts: 'Payouts',
  conversions: 'Conversions',
  payments: 'Payments',
  ledger: 'Ledger',
  reports: 'Reports',
  verifications: 'Verifications',
};

/** The finance console (/admin/:resource) for finance staff (role admin). */
export function AdminPage() {
  useDocumentTitle('Finance Console');
  const { user } = useCurrentUser();
  const params = useParams();
  const resource = (params['*'] ?? '').split('/')[0];
  if (user?.role !== 'admin') {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 6 }}>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
              Finance Staff Only
            </Typography>
            <Typography color="textSecondary">The finance console is for finance staff.</Typography>
          </CardContent>
        </Card>
      </Container>
    );
  }
  if (!(TABS as readonly string[]).includes(resource)) return <Navigate to="/admin/payouts" replace />;
  const current = resource as AdminTab;
  return (
    <Container maxWidth="xl" sx={{ py: { xs: 3, md: 4 } }}>
      <Stack spacing={3}>
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            Finance Console
          </Typography>
          <Typography color="textSecondary">
            Payouts, conversions, payments and the ledger with the event history behind every record, and the reports
            members sent.
          </Typography>
        </Box>
        <RevenueChart />
        <Tabs
          value={current}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((name) => (
            <Tab key={name} value={name} label={TITLES[name]} component={RouterLink} to={`/admin/${name}`} />
          ))}
        </Tabs>
        {current === 'reports' ? (
          <ReportsPanel />
        ) : current === 'verifications' ? (
          <VerificationsPanel />
        ) : (
          <AdminTable key={current} resource={current} />
        )}
      </Stack>
    </Container>
  );
}
