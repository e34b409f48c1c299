/** Block and report: the dialogs of the safety menu (./safety-menu.tsx), of chat and of message threads. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import {
  DUPLICATE_REPORT,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  reportRequestSchema,
  type ReportReason,
  type ReportTargetType,
} from '@contracts/safety';
import { isApiError, isUnauthorized, serverErrorText } from '@/lib/api';
import { useBlockChatPartnerMutation, useBlockUserMutation, useReportMutation } from '@/lib/safety-api';
import { toast } from './toast';

export interface ReportTarget {
  targetType: ReportTargetType;
  targetId: string;
}

/** How the dialogs name what is reported. */
const SUBJECT: Record<ReportTargetType, string> = {
  user: 'this person',
  post: 'this post',
  message: 'this message',
  chat_session: 'this chat',
};

/** What blocking does, said before the member confirms it. */
export const BLOCK_EFFECTS = [
  'You will never be matched in Lively Chat.',
  'Neither of you can message the other.',
  'They cannot like or comment on your posts.',
];

/** Who is blocked: a member by id, or Lively Chat's partner by the chat session (the page never learns their id). */
export type BlockTarget = { userId: string } | { chatSessionId: string };

/** Confirms and blocks a member; `onBlocked` runs after the block is recorded. */
export function BlockDialog({
  target,
  name,
  open,
  onClose,
  onBlocked,
}: {
  target: BlockTarget;
  name: string;
  open: boolean;
  onClose: () => void;
  onBlocked?: () => void;
}) {
  const [blockUser, byId] = useBlockUserMutation();
  const [blockPartner, bySession] = useBlockChatPartnerMutation();
  const isLoading = byId.isLoading || bySession.isLoading;
  const titleId = useId();
  const confirm = async () => {
    try {
      await (
        'userId' in target ? blockUser({ userId: target.userId }) : blockPartner({ sessionId: target.chatSessionId })
      ).unwrap();
      onClose();
      onBlocked?.();
      toast({ title: 'User Blocked', description: `You blocked ${name}. Unblock them any time in your Profile.` });
    } catch (error) {
      if (isUnauthorized(error)) return;
      toast({
        title: 'Error',
        description: serverErrorText(error) ?? 'Failed to block user.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Dialog open={open} onClose={isLoading ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Block {name}?</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {BLOCK_EFFECTS.map((effect) => (
              <li key={effect}>{effect}</li>
            ))}
          </Box>
          <Box sx={{ mt: 1.5 }}>They are not told. You can unblock them from your Profile at any time.</Box>
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading} sx={{ minHeight: 44 }}>
          Cancel
        </Button>
        <Button onClick={confirm} disabled={isLoading} variant="contained" color="error" sx={{ minHeight: 44 }}>
          Block
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A report with a reason from the contract's list and optional details; a repeat report (409) says so. */
export function ReportDialog({ target, open, onClose }: { target: ReportTarget; open: boolean; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; details?: string }>({});
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [report, { isLoading }] = useReportMutation();
  const titleId = useId();
  const subject = SUBJECT[target.targetType];

  const close = () => {
    setReason('');
    setDetails('');
    setErrors({});
    setDuplicate(null);
    onClose();
  };
  const submit = async () => {
    const parsed = reportRequestSchema.safeParse({ ...target, reason, details: details.trim() || undefined });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors({ reason: fields.reason, details: fields.details });
      return;
    }
    try {
      await report(parsed.data).unwrap();
      close();
      toast({ title: 'Report Sent', description: 'Thank you. Our team will review it.' });
    } catch (error) {
      if (isUnauthorized(error)) return;
      if (isApiError(error) && error.status === 409) return setDuplicate(serverErrorText(error) ?? DUPLICATE_REPORT);
      toast({
        title: 'Error',
        description: serverErrorText(error) ?? 'Failed to send report.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onClose={isLoading ? undefined : close} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Report {subject}</DialogTitle>
      <DialogContent>
        {duplicate && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {duplicate}
          </Alert>
        )}
        <FormControl error={!!errors.reason} component="fieldset" fullWidth>
          <FormLabel component="legend">Why are you reporting {subject}?</FormLabel>
          <RadioGroup
            name="reason"
            value={reason}
            onChange={(event) => {
              setReason(event.target.value as ReportReason);
              setErrors({ ...errors, reason: undefined });
            }}
          >
            {REPORT_REASONS.map((value) => (
              <FormControlLabel
                key={value}
                value={value}
                control={<Radio />}
                label={REPORT_REASON_LABELS[value]}
                sx={{ minHeight: 44 }}
              />
            ))}
          </RadioGroup>
          {errors.reason && <FormHelperText>{errors.reason}</FormHelperText>}
        </FormControl>
        <TextField
          label="Details (optional)"
          value={details}
          onChange={(event) => {
            setDetails(event.target.value);
            setErrors({ ...errors, details: undefined });
          }}
          error={!!errors.details}
          helperText={errors.details ?? 'What happened? Our team reads every report.'}
          multiline
          minRows={2}
          fullWidth
          sx={{ mt: 2 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={isLoading} sx={{ minHeight: 44 }}>
          {duplicate ? 'Close' : 'Cancel'}
        </Button>
        <Button onClick={submit} disabled={isLoading || duplicate !== null} variant="contained" sx={{ minHeight: 44 }}>
          Send Report
        </Button>
      </DialogActions>
    </Dialog>
  );
}
