import Close from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import {
  MODERATION_ACTIONS,
  REPORT_REASON_LABELS,
  resolveReportSchema,
  staffReasonSchema,
  suspendUserSchema,
  type AccountStanding,
  type ModerationAction,
  type ModerationReport,
  type ReportContext,
} from '@contracts/safety';
import { isUnauthorized, serverErrorText } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/components/toast';
import { useAccountActionMutation, useResolveReportMutation } from './moderation-api';

type StaffAction = ModerationAction | 'reinstate';

const ACTION_LABEL: Record<StaffAction, string> = {
  dismiss: 'Dismiss',
  remove_content: 'Remove content',
  warn: 'Warn',
  suspend: 'Suspend',
  ban: 'Ban',
  reinstate: 'Reinstate',
};
export const TARGET_LABEL: Record<ModerationReport['targetType'], string> = {
  user: 'Account',
  post: 'Post',
  message: 'Message',
  chat_session: 'Chat',
};

export function durationText(seconds: number | null): string {
  if (seconds === null) return 'still open';
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

export function standingText(standing: AccountStanding): string {
  if (standing.status === 'banned') return 'Banned';
  if (standing.status === 'active') return 'Active';
  if (standing.pendingReview) return 'Suspended pending review';
  return standing.suspendedUntil ? `Suspended until ${formatDateTime(standing.suspendedUntil)}` : 'Suspended';
}

/** A label and its value, in the drawer's two-column list. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}
    >
      {children}
    </Box>
  );
}

/** What was reported: the post or message text, or the chat session's people and times. */
function ReportedThing({ context }: { context: ReportContext }) {
  switch (context.kind) {
    case 'user':
      return <Typography variant="body2">The report is about the account itself.</Typography>;
    case 'missing':
      return <Typography variant="body2">The reported item is no longer available.</Typography>;
    case 'post':
    case 'message':
      return (
        <Stack spacing={1}>
          {context.removed && <Chip size="small" color="warning" label="Removed" sx={{ alignSelf: 'flex-start' }} />}
          <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="reported-text">
            {context.kind === 'post' && context.title && (
              <Typography sx={{ fontWeight: 700 }}>{context.title}</Typography>
            )}
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {context.content}
            </Typography>
          </Paper>
          <Facts>
            {context.kind === 'post' ? (
              <Fact label="Posted">{formatDateTime(context.createdAt)}</Fact>
            ) : (
              <>
                <Fact label="Sent">{formatDateTime(context.sentAt)}</Fact>
                <Fact label="To">{context.recipient.name}</Fact>
              </>
            )}
          </Facts>
        </Stack>
      );
    case 'chat_session':
      return (
        <Facts>
          <Fact label="Participants">{context.participants.map((person) => person.name).join(' and ')}</Fact>
          <Fact label="Mode">{context.mode === 'random' ? 'Random Chat' : 'Smart Matching'}</Fact>
          <Fact label="Started">{formatDateTime(context.startedAt)}</Fact>
          <Fact label="Ended">{context.endedAt ? formatDateTime(context.endedAt) : 'still open'}</Fact>
          <Fact label="Duration">{durationText(context.durationSeconds)}</Fact>
        </Facts>
      );
  }
}

/** The actions a report allows now: an open report is resolved; afterwards the account can still be acted on. */
function actionsFor(report: ModerationReport): StaffAction[] {
  const standing = report.targetUser.standing.status;
  const removable = (report.context.kind === 'post' || report.context.kind === 'message') && !report.context.removed;
  const actions: StaffAction[] =
    report.status === 'open'
      ? MODERATION_ACTIONS.filter((action) => action !== 'remove_content' || removable)
      : [
          ...(standing === 'active' ? (['suspend'] as const) : []),
          ...(standing !== 'banned' ? (['ban'] as const) : []),
        ];
  return standing === 'active' ? actions : [...actions, 'reinstate'];
}

/** One action at a time: pick it, give a reason (and days to suspend), confirm. */
function ModerationActions({
  report,
  onChanged,
}: {
  report: ModerationReport;
  onChanged: (report: ModerationReport) => void;
}) {
  const [chosen, setChosen] = useState<StaffAction | null>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('7');
  const [errors, setErrors] = useState<{ reason?: string; days?: string }>({});
  const [resolve, resolving] = useResolveReportMutation();
  const [act, acting] = useAccountActionMutation();
  const busy = resolving.isLoading || acting.isLoading;
  const actions = actionsFor(report);

  const choose = (action: StaffAction | null) => {
    setChosen(action);
    setErrors({});
  };
  /** The report's own resolution while it is open; the account's actions otherwise. */
  const run = async (action: StaffAction): Promise<{ report: ModerationReport; message: string } | null> => {
    const body = { reason, ...(action === 'suspend' ? { days } : {}) };
    if (report.status === 'open' && action !== 'reinstate') {
      const parsed = resolveReportSchema.safeParse({ action, ...body });
      if (!parsed.success) return invalid(parsed.error.issues);
      return resolve({ reportId: report.id, ...parsed.data }).unwrap();
    }
    const userId = report.targetUser.id;
    const parsed = action === 'suspend' ? suspendUserSchema.safeParse(body) : staffReasonSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error.issues);
    const request =
      action === 'suspend'
        ? { userId, action, ...(parsed.data as { days: number; reason: string }) }
        : { userId, action: action as 'ban' | 'reinstate', reason: parsed.data.reason };
    const { standing, message } = await act(request).unwrap();
    return { report: { ...report, targetUser: { ...report.targetUser, standing } }, message };
  };
  const invalid = (issues: { path: PropertyKey[]; message: string }[]) => {
    const fields: Record<string, string> = {};
    for (const issue of issues) fields[String(issue.path[0])] ??= issue.message;
    setErrors({ reason: fields.reason, days: fields.days });
    return null;
  };
  const confirm = async () => {
    if (!chosen) return;
    try {
      const done = await run(chosen);
      if (!done) return;
      toast({ title: done.message, description: `${ACTION_LABEL[chosen]}: ${report.targetUser.name}.` });
      setReason('');
      choose(null);
      onChanged(done.report);
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: serverErrorText(error) ?? 'The action failed.',
          variant: 'destructive',
        });
    }
  };

  if (actions.length === 0) return null;
  return (
    <Stack spacing={1.5} role="group" aria-label="Moderation actions">
      <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
        Actions
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {actions.map((action) => (
          <Button
            key={action}
            variant={chosen === action ? 'contained' : 'outlined'}
            color={action === 'ban' || action === 'suspend' ? 'error' : 'primary'}
            aria-pressed={chosen === action}
            disabled={busy}
            onClick={() => choose(chosen === action ? null : action)}
            sx={{ minHeight: 44 }}
          >
            {ACTION_LABEL[action]}
          </Button>
        ))}
      </Stack>
      {chosen && (
        <Stack spacing={1.5} component="form" onSubmit={(event) => (event.preventDefault(), confirm())}>
          {chosen === 'suspend' && (
            <TextField
              label="Days"
              type="number"
              value={days}
              onChange={(event) => setDays(event.target.value)}
              error={!!errors.days}
              helperText={errors.days}
              slotProps={{ htmlInput: { min: 1, max: 3650 } }}
              sx={{ maxWidth: 160 }}
            />
          )}
          <TextField
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            error={!!errors.reason}
            helperText={errors.reason ?? 'Recorded with your name; the member sees it for warnings and suspensions.'}
            multiline
            minRows={2}
            fullWidth
          />
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={busy} sx={{ minHeight: 44 }}>
              {chosen === 'suspend'
                ? `Suspend for ${days || '?'} days`
                : `Confirm ${ACTION_LABEL[chosen].toLowerCase()}`}
            </Button>
            <Button onClick={() => choose(null)} disabled={busy} sx={{ minHeight: 44 }}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

/** A report with what a moderator needs to judge it: the reported thing, the account's record, and the actions. */
export function ReportDrawer({
  report,
  onClose,
  onChanged,
}: {
  report: ModerationReport | null;
  onClose: () => void;
  onChanged: (report: ModerationReport) => void;
}) {
  return (
    <Drawer
      anchor="right"
      open={report !== null}
      onClose={onClose}
      // The drawer's paper is a dialog: it needs a name.
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 520 } }, 'aria-label': 'Report' } }}
    >
      {report && (
        <Stack spacing={2} sx={{ p: { xs: 2, sm: 3 } }} role="region" aria-label="Report details">
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              {TARGET_LABEL[report.targetType]} report
            </Typography>
            <IconButton aria-label="Close" onClick={onClose} sx={{ width: 44, height: 44 }}>
              <Close />
            </IconButton>
          </Stack>
          <Facts>
            <Fact label="Status">{report.status === 'open' ? 'Open' : 'Resolved'}</Fact>
            <Fact label="Reason">{REPORT_REASON_LABELS[report.reason]}</Fact>
            <Fact label="Details">{report.details ?? '-'}</Fact>
            <Fact label="Reported by">{report.reporter.name}</Fact>
            <Fact label="Reported">{formatDateTime(report.createdAt)}</Fact>
          </Facts>
          <Divider />
          <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
            {report.targetType === 'chat_session' ? 'The chat' : 'What was reported'}
          </Typography>
          <ReportedThing context={report.context} />
          <Divider />
          <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
            {report.targetUser.name}
          </Typography>
          <Facts>
            <Fact label="Standing">
              <span data-testid="standing">{standingText(report.targetUser.standing)}</span>
            </Fact>
            <Fact label="Earlier reports">{report.targetUser.earlierReports}</Fact>
          </Facts>
          {report.targetUser.lastActions.length > 0 && (
            <Stack spacing={0.5} component="ul" sx={{ m: 0, pl: 2.5 }} aria-label="Earlier actions">
              {report.targetUser.lastActions.map((entry) => (
                <Typography key={`${entry.action}-${entry.at}`} component="li" variant="body2">
                  {formatDateTime(entry.at)} · {entry.action.replace('_', ' ')}
                  {entry.days ? ` ${entry.days} days` : ''} by {entry.staff?.name ?? 'automatic protection'}:{' '}
                  {entry.reason}
                </Typography>
              ))}
            </Stack>
          )}
          {report.resolution && (
            <Alert severity="success">
              {ACTION_LABEL[report.resolution.action]}
              {report.resolution.days ? ` (${report.resolution.days} days)` : ''} by {report.resolution.staff.name},{' '}
              {formatDateTime(report.resolution.resolvedAt)}: {report.resolution.reason}
            </Alert>
          )}
          <Divider />
          <ModerationActions key={report.id} report={report} onChanged={onChanged} />
        </Stack>
      )}
    </Drawer>
  );
}
