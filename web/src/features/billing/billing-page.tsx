import ReceiptLong from '@mui/icons-material/ReceiptLongOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import type { BillingEntry } from '@contracts/billing';
import { formatDate } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { STATUS_CHIPS, methodLabel, signedAmount, useBillingHistoryInfiniteQuery } from './billing-api';

function StatusChip({ entry }: { entry: BillingEntry }) {
  const chip = STATUS_CHIPS[entry.status];
  return <Chip size="small" variant="outlined" color={chip.color} label={chip.label} data-testid="billing-status" />;
}

function Amount({ entry }: { entry: BillingEntry }) {
  return (
    <Typography
      component="span"
      sx={{ fontWeight: 700, whiteSpace: 'nowrap', color: entry.direction === 'credit' ? 'success.main' : undefined }}
      data-testid="billing-amount"
    >
      {signedAmount(entry)}
    </Typography>
  );
}

/** Why a declined or failed row did not go through (e.g. "Insufficient funds"), under its description; wraps. */
function Detail({ entry }: { entry: BillingEntry }) {
  if (!entry.detail) return null;
  return (
    <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }} data-testid="billing-detail">
      {entry.detail}
    </Typography>
  );
}

function ReceiptLink({ entry }: { entry: BillingEntry }) {
  if (!entry.hasReceipt) return null;
  return (
    <Button
      component={RouterLink}
      to={`/billing/receipts/${entry.id}`}
      size="small"
      startIcon={<ReceiptLong />}
      sx={{ minHeight: 44 }}
      aria-label={`Receipt for ${entry.description}, ${formatDate(entry.occurredAt)}`}
    >
      Receipt
    </Button>
  );
}

/** Phones: one card per money fact. */
function EntryCard({ entry }: { entry: BillingEntry }) {
  return (
    <Card variant="outlined" data-testid="billing-entry">
      <CardContent sx={{ pb: '12px !important' }}>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{entry.description}</Typography>
            <Detail entry={entry} />
            <Typography variant="body2" color="textSecondary">
              {formatDate(entry.occurredAt)} · {methodLabel(entry.method)}
            </Typography>
          </Box>
          <Amount entry={entry} />
        </Stack>
        <Stack direction="row" sx={{ mt: 1, justifyContent: 'space-between', alignItems: 'center', minHeight: 44 }}>
          <StatusChip entry={entry} />
          <ReceiptLink entry={entry} />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Desktop: a table. */
function EntryTable({ entries }: { entries: BillingEntry[] }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Billing history">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Description</TableCell>
            <TableCell>Method</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell align="right" />
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={entry.id} data-testid="billing-entry">
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(entry.occurredAt)}</TableCell>
              <TableCell>
                {entry.description}
                <Detail entry={entry} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{methodLabel(entry.method)}</TableCell>
              <TableCell>
                <StatusChip entry={entry} />
              </TableCell>
              <TableCell align="right">
                <Amount entry={entry} />
              </TableCell>
              <TableCell align="right" sx={{ py: 0 }}>
                <ReceiptLink entry={entry} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Billing (/billing): every charge, credit, conversion, unlock and refund of the member, with receipts. */
export function BillingPage() {
  useDocumentTitle('Billing');
  const wide = useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  // Money may have moved since the last visit: read it afresh each time the page opens.
  const history = useBillingHistoryInfiniteQuery(undefined, { refetchOnMountOrArgChange: true });
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        Billing
      </Typography>
      <Typography color="textSecondary" sx={{ mt: 0.5, mb: 3 }}>
        Your charges, credits and refunds. Open a receipt to print it.
      </Typography>
      {history.isLoading ? (
        <Stack spacing={1.5}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={72} />
          ))}
        </Stack>
      ) : history.isError ? (
        <Alert severity="error">Unable to load your billing history. Please try again later.</Alert>
      ) : entries.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="textSecondary">No billing history yet</Typography>
        </Paper>
      ) : wide ? (
        <EntryTable entries={entries} />
      ) : (
        <Stack spacing={1.5}>
          {entries.map((entry) => (
            <EntryCard key={entry.id} entry={entry} />
          ))}
        </Stack>
      )}
      {history.hasNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
          <Button variant="outlined" onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </Box>
      )}
    </Container>
  );
}
