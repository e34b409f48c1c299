import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import type { AdminResource } from '@contracts/admin';
import { formatDateTime } from '@/lib/format';

/** DataGrid columns per table. `field` names match the API's sortField values where sortable. */

const STATUS_COLOR: Record<string, 'warning' | 'info' | 'success' | 'error' | 'default'> = {
  pending: 'warning',
  processing: 'info',
  completed: 'success',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
  refunded: 'default',
  partially_refunded: 'info',
  disputed: 'error',
};
const status: GridColDef = {
  field: 'status',
  headerName: 'Status',
  width: 120,
  renderCell: ({ value }) => (
    <Chip
      size="small"
      label={String(value).replace('_', ' ')}
      color={STATUS_COLOR[String(value)] ?? 'default'}
      sx={{ textTransform: 'capitalize' }}
    />
  ),
};
const date = (field: string, headerName: string): GridColDef => ({
  field,
  headerName,
  width: 170,
  valueFormatter: (value: string | null) => formatDateTime(value),
});
const money = (field: string, headerName: string, sortable = true): GridColDef => ({
  field,
  headerName,
  width: 110,
  align: 'right',
  headerAlign: 'right',
  sortable,
  valueFormatter: (value: string) => `$${value}`,
});
const text = (field: string, headerName: string, width = 160, sortable = false): GridColDef => ({
  field,
  headerName,
  width,
  sortable,
});

export const ADMIN_COLUMNS: Record<AdminResource, GridColDef[]> = {
  payouts: [
    date('createdAt', 'Requested'),
    text('creatorEmail', 'Creator', 220),
    money('amount', 'Amount'),
    money('processingFee', 'Fee', false),
    money('netAmount', 'Net'),
    status,
    // Trust and safety: why an unpaid payout of a banned creator is held (empty otherwise).
    text('heldReason', 'Held', 220),
    date('processedAt', 'Processed'),
    text('failureReason', 'Reason', 160),
    text('id', 'Payout ID', 290),
  ],
  conversions: [
    {
      field: 'conversionNumber',
      headerName: 'No.',
      width: 80,
      sortable: false,
      valueFormatter: (value: number | null) => (value === null ? '—' : `#${value}`),
    },
    date('createdAt', 'Created'),
    text('userEmail', 'Member', 220),
    text('cryptoType', 'Crypto', 80),
    {
      field: 'cryptoAmount',
      headerName: 'Crypto amount',
      width: 140,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
    },
    money('amount', 'USD'),
    money('fee', 'Fee'),
    money('netAmount', 'Net'),
    status,
    text('id', 'Transaction ID', 290),
  ],
  payments: [
    date('createdAt', 'Created'),
    text('userEmail', 'Member', 220),
    text('requestType', 'Type', 170, true),
    money('amount', 'Amount'),
    status,
    money('refunded', 'Refunded', false),
    money('disputed', 'Chargeback', false),
    text('cardLast4', 'Card', 80),
    text('failureReason', 'Failure', 180),
    text('id', 'Payment ID', 290),
  ],
  ledger: [
    date('effectiveAt', 'Effective'),
    text('kind', 'Kind', 150, true),
    text('account', 'Account', 200, true),
    text('ownerId', 'Owner', 140),
    money('debit', 'Debit', false),
    money('credit', 'Credit', false),
    text('description', 'Description', 320),
    text('transactionId', 'Transaction', 200),
  ],
};
