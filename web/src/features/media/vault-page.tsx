import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import MovieOutlined from '@mui/icons-material/MovieOutlined';
import PostAdd from '@mui/icons-material/PostAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { MediaItem, MediaKind, MediaStatus } from '@contracts/media';
import { MediaUploader } from '@/components/media-uploader';
import { PageSpinner } from '@/components/page-spinner';
import { toast } from '@/components/toast';
import { errorMessage, isUnauthorized, serverErrorText } from '@/lib/api';
import { useCurrentUser } from '@/lib/current-user';
import { clockDuration, formatDate } from '@/lib/format';
import { useDeleteMediaMutation, useMediaVaultQuery } from '@/lib/media-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMediaUpload } from '@/lib/use-media-upload';
import { WatermarkSetting } from './watermark-setting';

const PAGE_SIZE = 24;

const STATUS_CHIP: Record<MediaStatus, { label: string; color: 'default' | 'success' | 'error' | 'warning' }> = {
  processing: { label: 'Processing', color: 'warning' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

function describe(item: MediaItem): string {
  const size = item.width && item.height ? `${item.width}×${item.height}` : '';
  const length = item.durationSeconds ? clockDuration(item.durationSeconds) : '';
  return [item.kind === 'video' ? 'Video' : 'Photo', size, length, formatDate(item.createdAt)]
    .filter(Boolean)
    .join(' · ');
}

function Thumbnail({ item }: { item: MediaItem }) {
  const frame = { aspectRatio: '1 / 1', width: '100%', bgcolor: 'action.hover', display: 'block' };
  if (item.thumbnailUrl)
    return <Box component="img" src={item.thumbnailUrl} alt="" loading="lazy" sx={{ ...frame, objectFit: 'cover' }} />;
  const Icon = item.kind === 'video' ? MovieOutlined : ImageOutlined;
  return (
    <Box aria-hidden sx={{ ...frame, display: 'grid', placeItems: 'center', color: 'text.secondary' }}>
      <Icon sx={{ fontSize: 48 }} />
    </Box>
  );
}

function VaultCard({ item, onDelete }: { item: MediaItem; onDelete: (item: MediaItem) => void }) {
  const navigate = useNavigate();
  const chip = STATUS_CHIP[item.status];
  const summary = describe(item);
  return (
    <Card variant="outlined" data-testid="vault-item" aria-label={summary} component="li">
      <Box sx={{ position: 'relative' }}>
        <Thumbnail item={item} />
        <Chip
          size="small"
          label={item.status === 'processing' && item.progress ? `${chip.label} ${item.progress}%` : chip.label}
          color={chip.color}
          sx={{ position: 'absolute', top: 8, left: 8 }}
        />
      </Box>
      <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
        <Typography variant="caption" color="textSecondary">
          {summary}
        </Typography>
        {item.failureReason && (
          <Typography variant="caption" color="error" sx={{ display: 'block' }}>
            {item.failureReason}
          </Typography>
        )}
      </CardContent>
      <CardActions sx={{ pt: 0, justifyContent: 'space-between' }}>
        <Button
          size="small"
          startIcon={<PostAdd />}
          disabled={item.status !== 'ready'}
          onClick={() => void navigate(`/dashboard?newPost=1&media=${encodeURIComponent(item.id)}`)}
          // Two cards a row on phones: the label keeps one line there, without its icon.
          sx={{
            minHeight: 44,
            whiteSpace: 'nowrap',
            '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
          }}
        >
          Use in a post
        </Button>
        <IconButton aria-label="Delete" onClick={() => onDelete(item)}>
          <DeleteOutline />
        </IconButton>
      </CardActions>
    </Card>
  );
}

/** One page of the vault; the last loaded page offers the next. */
function VaultChunk({
  kind,
  cursor,
  last,
  onMore,
  onDelete,
}: {
  kind?: MediaKind;
  cursor?: string;
  last: boolean;
  onMore: (cursor: string) => void;
  onDelete: (item: MediaItem) => void;
}) {
  const { data, isLoading, isError } = useMediaVaultQuery({ kind, cursor, limit: PAGE_SIZE });
  if (isLoading)
    return (
      <>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} component="li" variant="rounded" sx={{ aspectRatio: '1 / 1', height: 'auto' }} />
        ))}
      </>
    );
  if (isError || !data)
    return (
      <Alert component="li" severity="error" sx={{ gridColumn: '1 / -1' }}>
        Could not load your media.
      </Alert>
    );
  if (!cursor && data.items.length === 0)
    return (
      <Typography component="li" color="textSecondary" sx={{ gridColumn: '1 / -1', textAlign: 'center', py: 4 }}>
        No media yet. Upload photos and videos to use them in posts and messages.
      </Typography>
    );
  return (
    <>
      {data.items.map((item) => (
        <VaultCard key={item.id} item={item} onDelete={onDelete} />
      ))}
      {last && data.nextCursor && (
        <Box component="li" sx={{ gridColumn: '1 / -1', textAlign: 'center' }}>
          <Button variant="outlined" onClick={() => onMore(data.nextCursor!)} sx={{ minHeight: 44 }}>
            Load more
          </Button>
        </Box>
      )}
    </>
  );
}

/** `item` stays set while the dialog fades out (so its title does not change); `open` closes it. */
function DeleteDialog({ item, open, onClose }: { item: MediaItem | null; open: boolean; onClose: () => void }) {
  const [remove, { isLoading }] = useDeleteMediaMutation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = async () => {
    if (!item) return;
    try {
      await remove(item.id).unwrap();
      toast({ title: 'Deleted', description: 'The file was removed from your vault.' });
      close();
    } catch (error) {
      if (isUnauthorized(error)) return;
      // 409: a post or message uses it; the server says which.
      setRefusal(serverErrorText(error) ?? errorMessage(error));
    }
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby="delete-media-title">
      <DialogTitle id="delete-media-title">Delete this {item?.kind === 'video' ? 'video' : 'photo'}?</DialogTitle>
      <DialogContent>
        <DialogContentText>It is removed from your vault and cannot be brought back.</DialogContentText>
        {refusal && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {refusal}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={isLoading}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={confirm} disabled={isLoading || Boolean(refusal)}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}

type Filter = 'all' | MediaKind;

function Vault() {
  const [filter, setFilter] = useState<Filter>('all');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [deleting, setDeleting] = useState<{ item: MediaItem | null; open: boolean }>({ item: null, open: false });
  const upload = useMediaUpload();
  const kind = filter === 'all' ? undefined : filter;

  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Upload
        </Typography>
        <MediaUploader upload={upload} />
      </Paper>
      <WatermarkSetting />
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        aria-label="Show"
        onChange={(_event, value: Filter | null) => {
          if (!value) return;
          setFilter(value);
          setCursors([undefined]);
        }}
        sx={{ '& .MuiToggleButton-root': { minHeight: 44, px: 2 } }}
      >
        <ToggleButton value="all">All</ToggleButton>
        <ToggleButton value="image">Photos</ToggleButton>
        <ToggleButton value="video">Videos</ToggleButton>
      </ToggleButtonGroup>
      <Box
        component="ul"
        aria-label="Your media"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(3, minmax(0, 1fr))',
            md: 'repeat(4, minmax(0, 1fr))',
          },
        }}
      >
        {cursors.map((cursor, index) => (
          <VaultChunk
            key={cursor ?? 'first'}
            kind={kind}
            cursor={cursor}
            last={index === cursors.length - 1}
            onMore={(next) => setCursors((current) => [...current, next])}
            onDelete={(item) => setDeleting({ item, open: true })}
          />
        ))}
      </Box>
      <DeleteDialog
        item={deleting.item}
        open={deleting.open}
        onClose={() => setDeleting((current) => ({ ...current, open: false }))}
      />
    </Stack>
  );
}

/** /vault (issue 18): a creator's uploaded photos and videos, to upload, filter, reuse or delete. */
export function VaultPage() {
  useDocumentTitle('Media Vault');
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 2, sm: 4 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 3 }}>
        Media Vault
      </Typography>
      {user.isCreator ? (
        <Vault />
      ) : (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/dashboard" color="inherit" sx={{ minHeight: 44 }}>
              Become a Creator
            </Button>
          }
        >
          The media vault is for creators.
        </Alert>
      )}
    </Container>
  );
}
