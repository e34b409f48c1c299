import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { CreatorAnalytics } from '@contracts/creator-insights';
import { countOf, formatDate, usd } from '@/lib/format';

const dollars = (cents: number) => usd(cents / 100);

/** Tips and paid-message unlocks (issue 21): the window's totals, then each day that had any, newest first. */
export function TipsAndUnlocks({ analytics }: { analytics: CreatorAnalytics }) {
  const { current } = analytics;
  const days = analytics.daily.filter((day) => day.tips > 0 || day.unlocks > 0).reverse();
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Typography data-testid="total-tips">
          <strong>{dollars(current.tipsCents)}</strong> from {countOf(current.tips, 'tip')}
        </Typography>
        <Typography data-testid="total-unlocks">
          <strong>{dollars(current.unlocksCents)}</strong> from {countOf(current.unlocks, 'unlock')}
        </Typography>
      </Stack>
      {days.length === 0 ? (
        <Typography color="textSecondary">No tips or unlocks in this period yet.</Typography>
      ) : (
        <Table size="small" aria-label="Tips and unlocks per day">
          <TableHead>
            <TableRow>
              <TableCell>Day</TableCell>
              <TableCell align="right">Tips</TableCell>
              <TableCell align="right">Unlocks</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {days.map((day) => (
              <TableRow key={day.date}>
                <TableCell>{formatDate(`${day.date}T00:00:00Z`)}</TableCell>
                <TableCell align="right">
                  {day.tips} · {dollars(day.tipsCents)}
                </TableCell>
                <TableCell align="right">
                  {day.unlocks} · {dollars(day.unlocksCents)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
