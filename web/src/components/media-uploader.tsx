import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Close from '@mui/icons-material/Close';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import MovieOutlined from '@mui/icons-material/MovieOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import type { UploadEntry, MediaUploadState } from '@/lib/use-media-upload';

function statusText(entry: UploadEntry): string {
  if (entry.phase === 'uploading') return `Uploading ${entry.percent}%`;
  if (entry.phase === 'processing') return `Processing… ${entry.percent}%`;
  if (entry.phase === 'ready') return 'Ready';
  return entry.error ?? 'Upload failed';
}

function Thumbnail({ entry }: { entry: UploadEntry }) {
  const frame = { width: 48, height: 48, borderRadius: 1, flexShrink: 0, bgcolor: 'action.hover' };
  if (entry.thumbnailUrl)
    return <Box component="img" src={entry.thumbnailUrl} alt="" sx={{ ...frame, objectFit: 'cover' }} />;
  const Icon = entry.kind === 'video' ? MovieOutlined : ImageOutlined;
  return (
    <Box aria-hidden sx={{ ...frame, display: 'grid', placeItems: 'center', color: 'text.secondary' }}>
      <Icon />
    </Box>
  );
}

function EntryRow({
  entry,
  index,
  count,
  upload,
}: {
  entry: UploadEntry;
  index: number;
  count: number;
  upload: MediaUploadState;
}) {
  const failed = entry.phase === 'failed';
  const name = entry.fromVault ? `${entry.kind === 'video' ? 'Video' : 'Photo'} from your vault` : entry.name;
  const label = `${name} (${index + 1} of ${count})`;
  return (
    <Stack
      component="li"
      direction="row"
      spacing={1}
      data-testid="upload-entry"
      aria-label={label}
      sx={{ alignItems: 'center', minWidth: 0 }}
    >
      <Thumbnail entry={entry} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" noWrap title={name}>
          {name}
        </Typography>
        {!failed && entry.phase !== 'ready' && (
          <LinearProgress
            variant="determinate"
            value={entry.percent}
            color={entry.phase === 'processing' ? 'secondary' : 'primary'}
            aria-label={`${name}: ${statusText(entry)}`}
            sx={{ my: 0.5 }}
          />
        )}
        <Typography
          variant="caption"
          role={failed ? 'alert' : undefined}
          color={failed ? 'error' : 'textSecondary'}
          sx={{ display: 'block', overflowWrap: 'anywhere' }}
        >
          {statusText(entry)}
        </Typography>
      </Box>
      <IconButton aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => upload.move(entry.key, -1)}>
        <ArrowUpward fontSize="small" />
      </IconButton>
      <IconButton
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => upload.move(entry.key, 1)}
      >
        <ArrowDownward fontSize="small" />
      </IconButton>
      <IconButton aria-label={`Remove ${name}`} onClick={() => upload.remove(entry.key)}>
        <Close fontSize="small" />
      </IconButton>
    </Stack>
  );
}

/**
 * Drop zone and file list of an uploader (issue 18): pick or drop several files, watch each one
 * upload then process, reorder, remove. The state lives in `useMediaUpload`.
 */
export function MediaUploader({
  upload,
  accept = 'image/*,video/*',
  label = 'Add photos or videos',
}: {
  upload: MediaUploadState;
  accept?: string;
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();
  const { entries } = upload;

  return (
    <Stack spacing={1.5}>
      <Box
        data-testid="media-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (event.dataTransfer.files.length) upload.addFiles(event.dataTransfer.files);
        }}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: 2,
          textAlign: 'center',
        }}
      >
        <Button
          variant="outlined"
          startIcon={<CloudUploadOutlined />}
          onClick={() => input.current?.click()}
          aria-describedby={hintId}
          sx={{ minHeight: 44 }}
        >
          {label}
        </Button>
        <Typography id={hintId} variant="caption" color="textSecondary" sx={{ display: 'block', mt: 1 }}>
          or drop files here
        </Typography>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={accept}
          data-testid="media-file-input"
          onChange={(event) => {
            if (event.target.files?.length) upload.addFiles(event.target.files);
            event.target.value = ''; // the same file can be picked again (a retry)
          }}
        />
      </Box>
      {entries.length > 0 && (
        <Stack component="ol" spacing={1} aria-label="Attached media" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {entries.map((entry, index) => (
            <EntryRow key={entry.key} entry={entry} index={index} count={entries.length} upload={upload} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
