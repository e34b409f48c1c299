import ArrowBack from '@mui/icons-material/ArrowBack';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { LAPSED_WITHIN_DAYS, type MassMessageSegmentKind, type MassMessageSummary } from '@contracts/mass-messages';
import { IdentityRequiredAlert } from '@/components/identity-required-alert';
import { MediaUploader } from '@/components/media-uploader';
import { PageSpinner } from '@/components/page-spinner';
import { toast } from '@/components/toast';
import { errorMessage, isUnauthorized } from '@/lib/api';
import { useTiersQuery } from '@/lib/creators-api';
import { useCurrentUser } from '@/lib/current-user';
import { countOf, formatDateTime, usd } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMediaUpload } from '@/lib/use-media-upload';
import { identityRequiredText } from '@/lib/verification-api';
import { useMassMessagesQuery, useSendMassMessageMutation } from './mass-messages-api';

const SEGMENTS: Array<{ value: MassMessageSegmentKind; label: string }> = [
  { value: 'active', label: 'All active subscribers' },
  { value: 'tier', label: 'Subscribers of one tier' },
  { value: 'lapsed', label: `Lapsed in the last ${LAPSED_WITHIN_DAYS} days` },
];

function Composer({ creatorId }: { creatorId: string }) {
  const [segment, setSegment] = useState<MassMessageSegmentKind>('active');
  const [tierId, setTierId] = useState('');
  const [content, setContent] = useState('');
  const [price, setPrice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [needsIdentity, setNeedsIdentity] = useState<string | null>(null);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const { data: tiers = [] } = useTiersQuery(creatorId);
  const upload = useMediaUpload();
  const { addExisting, remove } = upload;
  const [send, { isLoading }] = useSendMassMessageMutation();
  // Items picked in the vault (`?media=<id>`, as the vault links to composers), checked like fresh ones.
  const preselected = useSearchParams()[0].getAll('media').join(',');
  useEffect(() => {
    if (!preselected) return;
    const keys = preselected.split(',').map(addExisting);
    return () => keys.forEach(remove);
  }, [preselected, addExisting, remove]);

  const submit = async () => {
    setError(null);
    setNeedsIdentity(null);
    try {
      const sent = await send({
        segment,
        tierId: segment === 'tier' ? tierId : null,
        content,
        price: price.trim() || null,
        ...(upload.mediaIds.length ? { mediaIds: upload.mediaIds } : {}),
        idempotencyKey,
      }).unwrap();
      toast({ title: 'Mass message sent', description: `On its way to ${countOf(sent.recipients, 'subscriber')}.` });
      setContent('');
      setPrice('');
      upload.clear();
      setIdempotencyKey(crypto.randomUUID());
    } catch (failure) {
      const identity = identityRequiredText(failure);
      if (identity) return setNeedsIdentity(identity);
      if (!isUnauthorized(failure)) setError(errorMessage(failure));
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2} component="form" aria-label="New mass message" onSubmit={(event) => event.preventDefault()}>
          <Typography variant="h6" component="h2">
            New mass message
          </Typography>
          <TextField
            select
            label="Send to"
            value={segment}
            onChange={(event) => setSegment(event.target.value as MassMessageSegmentKind)}
          >
            {SEGMENTS.map((option) => (
              <MenuItem key={option.value} value={option.value} sx={{ minHeight: 44 }}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          {segment === 'tier' && (
            <TextField select label="Tier" value={tierId} onChange={(event) => setTierId(event.target.value)}>
              {tiers.map((tier) => (
                <MenuItem key={tier.id} value={tier.id} sx={{ minHeight: 44 }}>
                  {tier.name} ({usd(tier.price)}/month)
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            label="Message"
            value={content}
            onChange={(event) => setContent(event.target.value)}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: 5000 } }}
          />
          <TextField
            label="Price (optional, pay-per-view)"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            inputMode="decimal"
            placeholder="4.99"
            helperText="Leave empty for a free message. Subscribers unlock a priced one from their balance."
          />
          <MediaUploader upload={upload} />
          {needsIdentity && <IdentityRequiredAlert message={needsIdentity} />}
          {error && <Alert severity="error">{error}</Alert>}
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button
              variant="contained"
              startIcon={<Send />}
              onClick={submit}
              disabled={!content.trim() || (segment === 'tier' && !tierId) || isLoading || !upload.allReady}
              sx={{ minHeight: 44 }}
            >
              Send
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

const segmentText = (summary: MassMessageSummary) =>
  summary.segment === 'tier'
    ? `Tier: ${summary.tierName ?? 'a tier'}`
    : SEGMENTS.find((option) => option.value === summary.segment)?.label;

function SentList() {
  const { data, error, refetch } = useMassMessagesQuery();
  const delivering = data?.some((summary) => !summary.delivered) ?? false;
  // While one is still being delivered, check again shortly.
  useEffect(() => {
    if (!delivering) return;
    const timer = setTimeout(refetch, 2000);
    return () => clearTimeout(timer);
  }, [delivering, data, refetch]);
  if (error) return <Alert severity="error">Could not load your mass messages. {errorMessage(error)}</Alert>;
  if (!data) return <Skeleton variant="rectangular" height={120} />;
  if (data.length === 0) return <Typography color="textSecondary">No mass messages sent yet.</Typography>;
  return (
    <Stack spacing={1.5} component="ul" aria-label="Sent mass messages" sx={{ p: 0, m: 0, listStyle: 'none' }}>
      {data.map((summary) => (
        <Card key={summary.id} variant="outlined" component="li" data-testid="mass-message">
          <CardContent>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
              <Chip size="small" label={segmentText(summary)} />
              {summary.price && <Chip size="small" color="secondary" label={`${usd(summary.price)} pay-per-view`} />}
              {summary.mediaCount > 0 && <Chip size="small" label={countOf(summary.mediaCount, 'attachment')} />}
              <Typography variant="body2" color="textSecondary">
                {formatDateTime(summary.createdAt)}
              </Typography>
            </Stack>
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{summary.content}</Typography>
            <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }} data-testid="mass-stats">
              <Typography variant="body2">
                Sent <strong>{summary.delivered ? summary.sent : `${summary.sent}/${summary.recipients}`}</strong>
                {summary.delivered ? '' : ' (delivering…)'}
              </Typography>
              <Typography variant="body2">
                Unlocked <strong>{summary.unlocked}</strong>
              </Typography>
              <Typography variant="body2">
                Revenue <strong>{usd(summary.revenue)}</strong>
              </Typography>
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** /dashboard/mass-messages (issue 21): compose one message to a segment of subscribers; how each one did. */
export function MassMessagesPage() {
  useDocumentTitle('Mass messages');
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  if (!user.isCreator) return <Navigate to="/dashboard" replace />;
  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBack />} sx={{ mb: 1, minHeight: 44 }}>
        Dashboard
      </Button>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
        Mass messages
      </Typography>
      <Stack spacing={3}>
        <Composer creatorId={user.id} />
        <Typography variant="h6" component="h2">
          Sent
        </Typography>
        <SentList />
      </Stack>
    </Container>
  );
}
