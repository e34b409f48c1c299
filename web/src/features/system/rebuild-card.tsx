import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { RebuildJobView } from '@contracts/system';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { useStartRebuildMutation } from './system-api';

const RUNNING = new Set(['queued', 'building', 'switching']);

export const isRunning = (job: RebuildJobView | null | undefined) => !!job && RUNNING.has(job.phase);

function eta(seconds: number | null): string {
  if (seconds === null) return '--';
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** Start a blue/green rebuild and follow its progress (events/s, ETA). */
export function RebuildCard({ projections, job }: { projections: string[]; job: RebuildJobView | null | undefined }) {
  const [target, setTarget] = useState('all');
  const [start, { isLoading }] = useStartRebuildMutation();
  const running = isRunning(job);
  const percent = job && job.eventsTotal > 0 ? Math.min(100, (job.eventsRead / job.eventsTotal) * 100) : 0;
  const rebuild = async () => {
    try {
      await start({ projection: target }).unwrap();
    } catch (error) {
      toast({
        title: 'Rebuild not started',
        description: serverErrorText(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          Rebuild read models
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          Builds a fresh copy from the whole event log beside the live tables, then switches it in. The site keeps
          answering from the old tables meanwhile.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label="Projection"
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            sx={{ minWidth: 260 }}
          >
            <MenuItem value="all">All read models</MenuItem>
            {projections.map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="contained" onClick={rebuild} disabled={running || isLoading}>
            {running ? 'Rebuilding…' : 'Rebuild'}
          </Button>
        </Stack>
        {job && (
          <Stack spacing={1} sx={{ mt: 2 }} aria-label="Rebuild progress">
            <Typography variant="body2">
              {job.target === 'all' ? 'All read models' : job.target}: <strong>{job.phase}</strong>
              {job.projection && job.phase !== 'done' ? ` (${job.projection})` : ''}
              {job.completed.length > 0 ? ` · done: ${job.completed.length}` : ''}
            </Typography>
            <LinearProgress
              variant={running && job.eventsTotal === 0 ? 'indeterminate' : 'determinate'}
              value={job.phase === 'done' ? 100 : percent}
            />
            <Typography variant="caption" color="textSecondary">
              {job.eventsRead.toLocaleString('en-US')} / {job.eventsTotal.toLocaleString('en-US')} events ·{' '}
              {job.eventsPerSecond.toLocaleString('en-US')} events/s · ETA {running ? eta(job.etaSeconds) : '--'}
            </Typography>
            {job.error && <Alert severity="error">{job.error}</Alert>}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
