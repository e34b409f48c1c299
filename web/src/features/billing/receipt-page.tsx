import ArrowBack from '@mui/icons-material/ArrowBack';
import Print from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import GlobalStyles from '@mui/material/GlobalStyles';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import type { Receipt } from '@contracts/billing';
import { isApiError } from '@/lib/api';
import { Logo } from '@/components/logo';
import { formatDate, usd } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { STATUS_CHIPS, methodLabel, useReceiptQuery } from './billing-api';

/**
 * On paper: no top bar and no buttons, black on white whatever the colour scheme, and the
 * receipt without its on-screen frame.
 */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '.MuiAppBar-root, .no-print': { display: 'none !important' },
        'html, body, #root, #root > div': { background: '#fff !important', color: '#000 !important' },
        '.printable-receipt': {
          boxShadow: 'none !important',
          border: 'none !important',
          background: '#fff !important',
          color: '#000 !important',
        },
        // The logo's letter keeps its white on the gradient.
        '.printable-receipt *:not([aria-hidden])': { color: '#000 !important' },
      },
    }}
  />
);

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', py: 0.75 }}>
      <Typography color="textSecondary">{label}</Typography>
      <Box sx={{ textAlign: 'right', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Stack>
  );
}

function ReceiptSheet({ receipt }: { receipt: Receipt }) {
  const chip = STATUS_CHIPS[receipt.status];
  const period =
    receipt.periodStart && receipt.periodEnd
      ? `${formatDate(receipt.periodStart)} – ${formatDate(receipt.periodEnd)}`
      : null;
  return (
    <Paper className="printable-receipt" variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }} data-testid="receipt">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
        <Logo />
        <Box sx={{ textAlign: 'right' }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 800 }}>
            Receipt
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {receipt.number}
          </Typography>
        </Box>
      </Stack>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3, justifyContent: 'space-between' }}>
        <Box>
          <Typography variant="overline" color="textSecondary">
            Billed to
          </Typography>
          <Typography sx={{ fontWeight: 600 }}>{receipt.member.name}</Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {receipt.member.email}
          </Typography>
        </Box>
        <Box sx={{ textAlign: { sm: 'right' } }}>
          <Typography variant="overline" color="textSecondary">
            Date
          </Typography>
          <Typography sx={{ fontWeight: 600 }}>{formatDate(receipt.issuedAt)}</Typography>
        </Box>
      </Stack>

      <Divider sx={{ my: 3 }} />
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{receipt.item}</Typography>
          {period && (
            <Typography variant="body2" color="textSecondary">
              Service period: {period}
            </Typography>
          )}
        </Box>
        <Typography sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>{usd(receipt.amount)}</Typography>
      </Stack>
      <Divider sx={{ my: 3 }} />

      <Line label="Total">
        <Typography sx={{ fontWeight: 800 }} data-testid="receipt-total">
          {usd(receipt.amount)} {receipt.currency}
        </Typography>
      </Line>
      <Line label="Payment method">
        <Typography>{methodLabel(receipt.method)}</Typography>
      </Line>
      <Line label="Status">
        <Chip size="small" variant="outlined" color={chip.color} label={chip.label} />
      </Line>
      {receipt.failureReason && (
        <Line label="Reason">
          <Typography>{receipt.failureReason}</Typography>
        </Line>
      )}
      {receipt.refunds.length > 0 && (
        <>
          <Divider sx={{ my: 2 }} />
          <Typography sx={{ fontWeight: 600 }}>Refunds</Typography>
          {receipt.refunds.map((refund) => (
            <Line key={refund.id} label={formatDate(refund.refundedAt)}>
              <Typography>-{usd(refund.amount)}</Typography>
              {refund.reason && (
                <Typography variant="body2" color="textSecondary">
                  {refund.reason}
                </Typography>
              )}
            </Line>
          ))}
          <Line label="Refunded in total">
            <Typography sx={{ fontWeight: 700 }}>{usd(receipt.refundedAmount)}</Typography>
          </Line>
        </>
      )}
      <Typography variant="body2" color="textSecondary" sx={{ mt: 3 }}>
        Lively · Amounts in US dollars.
      </Typography>
    </Paper>
  );
}

/** A printable receipt of one of the member's charges (/billing/receipts/:id). */
export function ReceiptPage() {
  const { id = '' } = useParams();
  const receipt = useReceiptQuery(id);
  useDocumentTitle(receipt.data ? `Receipt ${receipt.data.number}` : 'Receipt');
  const missing = isApiError(receipt.error) && receipt.error.status === 404;

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, md: 5 } }}>
      {printStyles}
      <Stack
        direction="row"
        className="no-print"
        sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}
      >
        <Button component={RouterLink} to="/billing" startIcon={<ArrowBack />} sx={{ minHeight: 44 }}>
          Billing
        </Button>
        {receipt.data && (
          <Button variant="contained" startIcon={<Print />} onClick={() => window.print()} sx={{ minHeight: 44 }}>
            Print
          </Button>
        )}
      </Stack>
      {receipt.isLoading ? (
        <Skeleton variant="rounded" height={420} />
      ) : receipt.data ? (
        <ReceiptSheet receipt={receipt.data} />
      ) : (
        <Alert severity={missing ? 'info' : 'error'}>
          {missing ? 'Receipt not found.' : 'Unable to load this receipt. Please try again later.'}
        </Alert>
      )}
    </Container>
  );
}
