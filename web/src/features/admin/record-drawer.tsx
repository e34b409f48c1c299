import Close from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AdminResource, PayoutAction } from '@contracts/admin';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { usePayoutActionMutation, useStreamEventsQuery } from './admin-api';
import { formatDateTime } from '@/lib/format';
import { RefundDialog } from './refund-dialog';

type Row = Record<string, unknown>;

const ACTIONS: Record<string, PayoutAction[]> = {
  pending: ['process', 'cancel'],
  processing: ['complete', 'fail', 'cancel'],
};
const ACTION_LABEL: Record<PayoutAction, string> = {
  process: 'Process',
  complete: 'Complete',
  fail: 'Mark Failed',
  cancel: 'Cancel Payout',
};

function PayoutActions({ payout, onChanged }: { payout: Row; onChanged: (row: Row) => void }) {
  const [reason, setReason] = useState('');
  const [run, { isLoading }] = usePayoutActionMutation();
  const actions = ACTIONS[String(payout.status)] ?? [];
  if (actions.length === 0) return null;
  const act = async (action: PayoutAction) => {
    if ((action === 'fail' || action === 'cancel') && !reason.trim()) {
      toast({
        title: 'Reason required',
        description: 'Enter a reason to fail or cancel a payout.',
        variant: 'destructive',
      });
      return;
    }
    try {
      const updated = await run({ id: String(payout.id), action, reason: reason.trim() || undefined }).unwrap();
      toast({ title: 'Payout updated', description: `The payout is now ${updated.status}.` });
      setReason('');
      onChanged(updated as unknown as Row);
    } catch (error) {
      toast({
        title: 'Error',
        description: serverErrorText(error) ?? 'The payout could not be updated.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2">Actions</Typography>
      <TextField
        size="small"
        label="Reason (required to fail or cancel)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {actions.map((action) => (
          <Button
            key={action}
            variant={action === 'fail' || action === 'cancel' ? 'outlined' : 'contained'}
            color={action === 'fail' || action === 'cancel' ? 'error' : 'primary'}
            disabled={isLoading}
            onClick={() => act(action)}
          >
            {ACTION_LABEL[action]}
          </Button>
        ))}
      </Stack>
    </Stack>
  );
}

/** A payment's refund action: open while anything of it is left to refund. */
function PaymentActions({ payment, onChanged }: { payment: Row; onChanged: (row: Row) => void }) {
  const [open, setOpen] = useState(false);
  const refundable = String(payment.refundable ?? '0.00');
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2">Actions</Typography>
      <Typography variant="body2" color="textSecondary">
        Refunded ${String(payment.refunded ?? '0.00')}
        {payment.disputed && payment.disputed !== '0.00'
          ? ` · chargeback $${String(payment.disputed)} (fee $${String(payment.chargebackFee)})`
          : ''}{' '}
        · refundable ${refundable}
      </Typography>
      <Button
        variant="outlined"
        color="error"
        disabled={refundable === '0.00'}
        onClick={() => setOpen(true)}
        sx={{ alignSelf: 'flex-start', minHeight: 44 }}
      >
        Refund
      </Button>
      {open && <RefundDialog payment={payment} open onClose={() => setOpen(false)} onRefunded={onChanged} />}
    </Stack>
  );
}

function EventHistory({
  streamName,
  related,
  highlight,
}: {
  streamName: string;
  related?: string;
  highlight?: string;
}) {
  const { data, isLoading, error } = useStreamEventsQuery({ streamName, related });
  if (isLoading) return <Skeleton height={120} />;
  if (error) return <Alert severity="error">{serverErrorText(error) ?? 'Could not load the history.'}</Alert>;
  return (
    <Stack spacing={1.5} aria-label="Event history">
      {data?.events.map((event) => (
        <Box
          key={event.eventId}
          sx={{
            p: 1.5,
            borderRadius: 1,
            border: 1,
            borderColor: event.eventId === highlight ? 'primary.main' : 'divider',
          }}
          data-testid="history-event"
        >
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}>
            <Typography sx={{ fontWeight: 700 }}>{event.type}</Typography>
            <Chip size="small" label={`#${event.revision}`} />
          </Stack>
          <Typography variant="body2" color="textSecondary">
            {formatDateTime(String(event.metadata.occurredAt ?? event.createdAt))} · by{' '}
            {event.actor ? (event.actor.email ?? event.actor.id) : 'system'}
          </Typography>
          <Typography variant="caption" color="textSecondary" component="div">
            request {String(event.metadata.requestId ?? '-')} · correlation{' '}
            {String(event.metadata.correlationId ?? '-')}
          </Typography>
          <Box
            component="pre"
            sx={{ m: 0, mt: 1, p: 1, fontSize: 12, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto' }}
          >
            {JSON.stringify(event.data, null, 2)}
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

/** A record's fields, its payout actions, and the full event history behind it. */
export function RecordDrawer({
  resource,
  record,
  onClose,
  onChanged,
}: {
  resource: AdminResource;
  record: Row | null;
  onClose: () => void;
  onChanged: (row: Row) => void;
}) {
  const streamName = record ? String(record.streamId ?? '') : '';
  const highlight = record && resource === 'ledger' ? String(record.transactionId).split(':')[0] : undefined;
  return (
    <Drawer
      anchor="right"
      open={record !== null}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 520 } } } }}
    >
      {record && (
        <Stack spacing={2} sx={{ p: 3 }} role="region" aria-label="Record details">
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              {resource === 'ledger'
                ? 'Ledger entry'
                : `${resource.slice(0, -1).replace(/^./, (c) => c.toUpperCase())} ${String(record.id).slice(0, 8)}`}
            </Typography>
            <IconButton aria-label="Close" onClick={onClose}>
              <Close />
            </IconButton>
          </Stack>
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}
          >
            {Object.entries(record).map(([key, value]) => (
              <Box key={key} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="textSecondary">
                  {key}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
                  {value === null || value === undefined ? '-' : String(value)}
                </Typography>
              </Box>
            ))}
          </Box>
          {resource === 'payouts' && <PayoutActions payout={record} onChanged={onChanged} />}
          {resource === 'payments' && <PaymentActions payment={record} onChanged={onChanged} />}
          <Divider />
          <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
            Event history
          </Typography>
          {streamName && (
            <EventHistory
              streamName={streamName}
              related={resource === 'payouts' ? String(record.id) : undefined}
              highlight={highlight}
            />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
