import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ConversionRecord } from '@contracts/crypto';
import { formatDateTime } from '@/lib/format';

/** SPEC §4: a conversion shows as Used (with months) or Available; unsettled ones show their status. */
function ConversionState({ record }: { record: ConversionRecord }) {
  if (record.usedForSubscription)
    return <Chip size="small" label={`Used (${record.subscriptionMonths ?? 6} months)`} />;
  if (record.status === 'completed') return <Chip size="small" color="success" label="Available" />;
  if (record.status === 'failed' || record.status === 'cancelled')
    return <Chip size="small" color="error" label={record.status === 'failed' ? 'Failed' : 'Cancelled'} />;
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      label={record.status === 'processing' ? 'Processing' : 'Pending'}
    />
  );
}

/** History (SPEC §2): the member's conversions, newest first. */
export function HistoryTab({
  conversions,
  isLoading,
  isError,
}: {
  conversions: ConversionRecord[] | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  if (isLoading) return <Skeleton variant="rounded" height={120} />;
  if (isError || !conversions)
    return <Alert severity="error">Unable to load your conversion history. Please try again later.</Alert>;
  if (conversions.length === 0) {
    return (
      <Typography color="textSecondary" sx={{ textAlign: 'center', py: 3 }}>
        No conversion history yet
      </Typography>
    );
  }
  return (
    <TableContainer>
      <Table size="small" aria-label="Conversion history">
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Amount</TableCell>
            <TableCell align="right">Rate</TableCell>
            <TableCell align="right">Fee</TableCell>
            <TableCell align="right">Net USD</TableCell>
            <TableCell>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {conversions.map((record) => (
            <TableRow key={record.transactionId} data-testid="conversion-row">
              {/* The conversion's number (SPEC: its id); conversions from before numbers have none. */}
              <TableCell data-testid="conversion-id">{record.id === null ? '—' : `#${record.id}`}</TableCell>
              <TableCell>{formatDateTime(record.createdAt)}</TableCell>
              <TableCell>
                {record.cryptoAmount} {record.cryptoType}
              </TableCell>
              <TableCell align="right">${record.exchangeRate}</TableCell>
              <TableCell align="right">${record.feeAmount}</TableCell>
              <TableCell align="right">${record.netAmount}</TableCell>
              <TableCell>
                <ConversionState record={record} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
