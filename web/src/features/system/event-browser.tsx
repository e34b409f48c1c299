import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { LogEventView } from '@contracts/system';
import { serverErrorText } from '@/lib/api';
import { useLogEventsQuery, type EventFilters } from './system-api';
import { formatDateTime } from '@/lib/format';

const json = (value: unknown) => JSON.stringify(value, null, 2);

function EventDialog({ event, onClose }: { event: LogEventView | null; onClose: () => void }) {
  return (
    <Dialog open={!!event} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{event?.type}</DialogTitle>
      {event && (
        <DialogContent dividers>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', mb: 2 }}>
            {event.streamId} #{event.revision} · position {event.position} · {event.createdAt} · id {event.eventId}
          </Typography>
          <Typography variant="subtitle2">Data</Typography>
          <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{json(event.data)}</pre>
          <Typography variant="subtitle2">Metadata</Typography>
          <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{json(event.metadata)}</pre>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The whole event log, newest first: filter by type, stream (or category) and time; open an event. */
export function EventBrowser() {
  const [draft, setDraft] = useState<EventFilters>({});
  const [filters, setFilters] = useState<EventFilters>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<LogEventView | null>(null);
  const before = cursors[cursors.length - 1];
  const { data, isFetching, error } = useLogEventsQuery({ ...filters, before });
  const field = (name: keyof EventFilters) => ({
    value: draft[name] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [name]: e.target.value }),
  });
  const apply = (event: React.FormEvent) => {
    event.preventDefault();
    setFilters({
      ...draft,
      from: draft.from ? new Date(draft.from).toISOString() : undefined,
      to: draft.to ? new Date(draft.to).toISOString() : undefined,
    });
    setCursors([]);
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
          Event log
        </Typography>
        <Stack component="form" onSubmit={apply} direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField size="small" label="Type" placeholder="UserRegistered" {...field('type')} />
          <TextField size="small" label="Stream or category" placeholder="user-… or user" {...field('stream')} />
          <TextField
            size="small"
            label="From"
            type="datetime-local"
            slotProps={{ inputLabel: { shrink: true } }}
            {...field('from')}
          />
          <TextField
            size="small"
            label="To"
            type="datetime-local"
            slotProps={{ inputLabel: { shrink: true } }}
            {...field('to')}
          />
          <Button type="submit" variant="outlined">
            Filter
          </Button>
        </Stack>
        {isFetching && <LinearProgress sx={{ mb: 1 }} />}
        {error ? (
          <Typography color="error">{serverErrorText(error) ?? 'The events could not be loaded.'}</Typography>
        ) : (
          <Table size="small" aria-label="Events">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>Stream</TableCell>
                <TableCell align="right">Revision</TableCell>
                <TableCell>Position</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(data?.events ?? []).map((event) => (
                <TableRow key={event.eventId} hover sx={{ cursor: 'pointer' }} onClick={() => setOpen(event)}>
                  <TableCell>{formatDateTime(event.createdAt)}</TableCell>
                  <TableCell>{event.type}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{event.streamId}</TableCell>
                  <TableCell align="right">{event.revision}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{event.position}</TableCell>
                </TableRow>
              ))}
              {data && data.events.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5}>No events match.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </Button>
          <Button disabled={!data?.next} onClick={() => data?.next && setCursors([...cursors, data.next])}>
            Older
          </Button>
        </Stack>
        <EventDialog event={open} onClose={() => setOpen(null)} />
      </CardContent>
    </Card>
  );
}
