import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  REPORT_REASON_LABELS,
  REPORT_STATUSES,
  REPORT_TARGET_TYPES,
  type ModerationReport,
  type ReportStatus,
  type ReportTargetType,
} from '@contracts/safety';
import { serverErrorText } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useModerationReportsInfiniteQuery } from './moderation-api';
import { ReportDrawer, standingText, TARGET_LABEL } from './report-drawer';

/** The queue opens on open reports; `status=all` shows every report. */
const ALL = 'all';

function useFilters() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'open';
  const targetType = params.get('targetType') ?? '';
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  const query = {
    ...((REPORT_STATUSES as readonly string[]).includes(status) ? { status: status as ReportStatus } : {}),
    ...((REPORT_TARGET_TYPES as readonly string[]).includes(targetType)
      ? { targetType: targetType as ReportTargetType }
      : {}),
  };
  return { status, targetType, set, query };
}

/** The moderation queue (/admin/reports): filters, the reports newest first, and a drawer per report. */
export function ReportsPanel() {
  const { status, targetType, set, query } = useFilters();
  const reports = useModerationReportsInfiniteQuery(query);
  const [selected, setSelected] = useState<ModerationReport | null>(null);
  const rows = reports.data?.pages.flatMap((page) => page.reports) ?? [];

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }} role="search" aria-label="Filters">
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(event) => set('status', event.target.value)}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="open">Open</MenuItem>
          <MenuItem value="resolved">Resolved</MenuItem>
          <MenuItem value={ALL}>Any</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Type"
          value={targetType}
          onChange={(event) => set('targetType', event.target.value)}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">Any</MenuItem>
          {REPORT_TARGET_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {TARGET_LABEL[type]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {reports.error && (
        <Alert severity="error">{serverErrorText(reports.error) ?? 'Could not load the reports.'}</Alert>
      )}
      {/* The table scrolls sideways inside itself on narrow screens; the page never does. */}
      <Card sx={{ minWidth: 0, maxWidth: '100%' }}>
        {/* Focusable, so keyboard users can scroll it sideways (axe: scrollable-region-focusable). */}
        <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Reports table">
          <Table size="small" aria-label="Reports">
            <TableHead>
              <TableRow>
                <TableCell>Reported</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Account</TableCell>
                <TableCell>Earlier reports</TableCell>
                <TableCell>Reporter</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((report) => (
                <TableRow
                  key={report.id}
                  hover
                  onClick={() => setSelected(report)}
                  sx={{ cursor: 'pointer' }}
                  data-testid="report-row"
                >
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(report.createdAt)}</TableCell>
                  <TableCell>{TARGET_LABEL[report.targetType]}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{REPORT_REASON_LABELS[report.reason]}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {report.targetUser.name}
                    <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
                      {standingText(report.targetUser.standing)}
                    </Typography>
                  </TableCell>
                  <TableCell>{report.targetUser.earlierReports}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{report.reporter.name}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={report.status === 'open' ? 'Open' : 'Resolved'}
                      color={report.status === 'open' ? 'warning' : 'default'}
                    />
                  </TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      onClick={(event) => {
                        event.stopPropagation();
                        setSelected(report);
                      }}
                      sx={{ minHeight: 44 }}
                    >
                      Review
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {!reports.isFetching && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8}>
                    <Typography color="textSecondary" sx={{ py: 2 }}>
                      No reports match these filters.
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>
      {reports.hasNextPage && (
        <Button
          onClick={() => reports.fetchNextPage()}
          disabled={reports.isFetchingNextPage}
          sx={{ alignSelf: 'center', minHeight: 44 }}
        >
          Load older reports
        </Button>
      )}
      <ReportDrawer report={selected} onClose={() => setSelected(null)} onChanged={setSelected} />
    </Stack>
  );
}
