import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SystemStatusView } from '@contracts/system';

const STATE_COLOR: Record<string, 'success' | 'warning' | 'default' | 'info'> = {
  'caught up': 'success',
  behind: 'warning',
  rebuilding: 'info',
};

/** Projections with checkpoint, lag and state (refreshed every 2 s by the page). */
export function ProjectionsCard({ status }: { status: SystemStatusView | undefined }) {
  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, flexGrow: 1 }}>
            Projections
          </Typography>
          {status && (
            <>
              <Chip
                size="small"
                label={`Database ${status.database}`}
                color={status.database === 'ok' ? 'success' : 'error'}
              />
              <Chip
                size="small"
                label={`Event store ${status.eventStore.kind} ${status.eventStore.status}`}
                color={status.eventStore.status === 'ok' ? 'success' : 'error'}
              />
              <Typography variant="body2" color="textSecondary">
                head {status.eventStore.head ?? '(empty)'}
              </Typography>
            </>
          )}
        </Stack>
        {!status ? (
          <Skeleton height={160} />
        ) : (
          <Table size="small" aria-label="Projections">
            <TableHead>
              <TableRow>
                <TableCell>Projection</TableCell>
                <TableCell align="right">Version</TableCell>
                <TableCell>Checkpoint</TableCell>
                <TableCell align="right">Lag (events)</TableCell>
                <TableCell>State</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {status.projections.map((p) => (
                <TableRow key={p.name}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{p.name}</TableCell>
                  <TableCell align="right">{p.version}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{p.checkpoint}</TableCell>
                  <TableCell align="right">{p.lag === null ? '?' : p.lag.toLocaleString('en-US')}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" label={p.state} color={STATE_COLOR[p.state] ?? 'default'} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
