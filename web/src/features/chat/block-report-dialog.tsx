import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { toast } from '@/components/toast';
import { useBlockChatPartnerMutation, useReportChatSessionMutation } from './chat-api';
import type { ChatMatch } from './use-lively-chat';

/**
 * Block or report the current partner. A report needs a reason and keeps the chat; a block ends
 * it (`onBlocked` moves on to the next match) and the pair is never matched again. It stays on
 * the chat it was opened for, even when the partner ends that chat meanwhile.
 * SPEC quotes no texts for this dialog; these are the product's own.
 */
export function BlockReportDialog({
  match,
  onClose,
  onBlocked,
}: {
  match: ChatMatch;
  onClose: () => void;
  onBlocked: () => void;
}) {
  const [reason, setReason] = useState('');
  const [missingReason, setMissingReason] = useState(false);
  const [block, blocking] = useBlockChatPartnerMutation();
  const [report, reporting] = useReportChatSessionMutation();
  const busy = blocking.isLoading || reporting.isLoading;
  const name = match.peerName || 'Anonymous';

  const close = () => {
    setReason('');
    setMissingReason(false);
    onClose();
  };
  const onReport = async () => {
    if (!reason.trim()) return setMissingReason(true);
    try {
      await report({ roomId: match.sessionId, reason: reason.trim() }).unwrap();
      toast({ title: 'Report Sent', description: 'Thank you. Our team will review this chat.' });
      close();
    } catch {
      toast({ title: 'Chat Error', description: 'Failed to send report.', variant: 'destructive' });
    }
  };
  const onBlock = async () => {
    try {
      await block({ roomId: match.sessionId, reason: reason.trim() || undefined }).unwrap();
      close();
      onBlocked();
      // After onBlocked: moving on shows its own toast, and only one toast shows at a time.
      toast({ title: 'User Blocked', description: `You will not be matched with ${name} again.` });
    } catch {
      toast({ title: 'Chat Error', description: 'Failed to block user.', variant: 'destructive' });
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : close} fullWidth maxWidth="xs" aria-labelledby="block-report-title">
      <DialogTitle id="block-report-title">Block or report {name}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Blocking ends this chat and you will never be matched again. A report is reviewed by our team.
        </DialogContentText>
        <TextField
          label="Reason"
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setMissingReason(false);
          }}
          error={missingReason}
          helperText={missingReason ? 'Reason is required' : 'Required for a report, optional for a block'}
          multiline
          minRows={2}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onReport} disabled={busy}>
          Report
        </Button>
        <Button onClick={onBlock} disabled={busy} variant="contained" color="error">
          Block
        </Button>
      </DialogActions>
    </Dialog>
  );
}
