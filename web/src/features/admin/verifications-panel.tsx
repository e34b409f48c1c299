import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AdminVerification, VerificationState } from '@contracts/verification';
import { formatDateTime } from '@/lib/format';
import { useAdminVerificationsInfiniteQuery } from './verifications-api';
import { VerificationReviewDialog } from './verification-review-dialog';

type Shown = Exclude<VerificationState, 'not_started'>;

const STATE_CHIP: Record<Shown, { label: string; color: 'default' | 'info' | 'warning' | 'success' | 'error' }> = {
  pending: { label: 'Pending', color: 'info' },
  needs_review: { label: 'Needs review', color: 'warning' },
  verified: { label: 'Verified', color: 'success' },
  rejected: { label: 'Rejected', color: 'error' },
};

function Record({ record, onReview }: { record: AdminVerification; onReview: () => void }) {
  const chip = STATE_CHIP[record.state];
  return (
    <Card variant="outlined" component="li" data-testid="verification-record">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Stack spacing={0.5} sx={{ minWidth: 0 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{record.legalName}</Typography>
              <Chip size="small" label={chip.label} color={chip.color} />
            </Stack>
            <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
              {record.creatorName} · {record.creatorEmail} · born {record.dateOfBirth}
            </Typography>
            <Typography variant="body2">
              Submitted {formatDateTime(record.submittedAt)} · provider {record.provider}
              {record.decidedAt &&
                ` · decided ${formatDateTime(record.decidedAt)} by ${record.decidedBy ?? `the provider (${record.provider})`}`}
            </Typography>
            {record.reason && <Typography variant="body2">Reason: {record.reason}</Typography>}
          </Stack>
          <Button
            variant={record.state === 'needs_review' ? 'contained' : 'outlined'}
            onClick={onReview}
            sx={{ minHeight: 44, alignSelf: { xs: 'stretch', sm: 'center' }, flexShrink: 0 }}
          >
            {record.state === 'needs_review' ? 'Review' : 'View files'}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The compliance tab (issue 20): identity verifications, newest first, with review and decision. */
export function VerificationsPanel() {
  const [state, setState] = useState<Shown | ''>('needs_review');
  const [reviewing, setReviewing] = useState<AdminVerification | null>(null);
  const pages = useAdminVerificationsInfiniteQuery(state ? { state } : {});
  const records = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="State"
        value={state}
        onChange={(event) => setState(event.target.value as Shown | '')}
        sx={{ maxWidth: { sm: 240 } }}
      >
        <MenuItem value="">All</MenuItem>
        {(Object.keys(STATE_CHIP) as Shown[]).map((name) => (
          <MenuItem key={name} value={name}>
            {STATE_CHIP[name].label}
          </MenuItem>
        ))}
      </TextField>
      {pages.isLoading ? (
        <Skeleton variant="rounded" height={96} />
      ) : records.length === 0 ? (
        <Typography color="textSecondary">
          No verifications{state ? ` in “${STATE_CHIP[state].label}”` : ''}.
        </Typography>
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {records.map((record) => (
            <Record key={record.id} record={record} onReview={() => setReviewing(record)} />
          ))}
        </Stack>
      )}
      {pages.hasNextPage && (
        <Button onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage} sx={{ minHeight: 44 }}>
          Load more
        </Button>
      )}
      {reviewing && <VerificationReviewDialog record={reviewing} onClose={() => setReviewing(null)} />}
    </Stack>
  );
}
