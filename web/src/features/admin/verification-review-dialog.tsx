import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AdminVerification, VerificationFileKind } from '@contracts/verification';
import { isUnauthorized, serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { useDecideVerificationMutation, verificationFileUrl } from './verifications-api';

const FILE_LABEL: Record<VerificationFileKind, string> = { document: 'ID document', selfie: 'Selfie' };

/** Staff look at a submission the provider sent to review, and verify or reject it (with a reason). */
export function VerificationReviewDialog({ record, onClose }: { record: AdminVerification; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [decide, { isLoading }] = useDecideVerificationMutation();
  const canDecide = record.state === 'needs_review';

  const send = async (decision: 'verified' | 'rejected') => {
    if (decision === 'rejected' && !reason.trim()) return setError('Say why the verification is rejected');
    try {
      await decide({ id: record.id, decision, reason: reason.trim() }).unwrap();
      toast({ title: decision === 'verified' ? 'Identity verified' : 'Verification rejected' });
      onClose();
    } catch (caught) {
      if (!isUnauthorized(caught)) setError(serverErrorText(caught) ?? 'Could not record the decision');
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="verification-review-title">
      <DialogTitle id="verification-review-title">Review: {record.legalName}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="textSecondary">
            {record.creatorName} ({record.creatorEmail}) · born {record.dateOfBirth} · {record.provider}:{' '}
            {record.reason ?? 'no reason given'}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {(['document', 'selfie'] as const).map((kind) => (
              <Box key={kind} sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="subtitle2">{FILE_LABEL[kind]}</Typography>
                <Box
                  component="img"
                  src={verificationFileUrl(record.id, kind)}
                  alt={`${FILE_LABEL[kind]} of ${record.legalName}`}
                  sx={{ width: '100%', maxHeight: 360, objectFit: 'contain', bgcolor: 'action.hover', borderRadius: 1 }}
                />
              </Box>
            ))}
          </Stack>
          {canDecide && (
            <TextField
              label="Reason (needed to reject)"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              multiline
              minRows={2}
            />
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} sx={{ minHeight: 44 }}>
          Close
        </Button>
        {canDecide && (
          <>
            <Button color="error" onClick={() => send('rejected')} disabled={isLoading} sx={{ minHeight: 44 }}>
              Reject
            </Button>
            <Button variant="contained" onClick={() => send('verified')} disabled={isLoading} sx={{ minHeight: 44 }}>
              Verify
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
