import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { MAX_CHAT_IMAGES, publicMediaIdOf } from '@contracts/profile-media';
import { MediaUploader } from '@/components/media-uploader';
import { toast } from '@/components/toast';
import { errorMessage, isUnauthorized, serverErrorText } from '@/lib/api';
import { useMediaUpload } from '@/lib/use-media-upload';
import { useAddChatImageMutation, useRemoveChatImageMutation, useReorderChatImagesMutation } from './profile-api';

const failed = (title: string, error: unknown) => {
  if (!isUnauthorized(error))
    toast({ title, description: serverErrorText(error) ?? errorMessage(error), variant: 'destructive' });
};

/**
 * Each uploaded photo, once processed, goes onto the chat profile and leaves the uploader's
 * list, in the list's order (one still processing holds back those after it; a failed one stays
 * listed with its reason and is passed over).
 */
function useAddWhenReady(upload: ReturnType<typeof useMediaUpload>) {
  const [add] = useAddChatImageMutation();
  const sent = useRef(new Set<string>());
  const queue = useRef(Promise.resolve());
  useEffect(() => {
    for (const entry of upload.entries) {
      if (entry.phase === 'failed') continue;
      if (entry.phase !== 'ready' || !entry.mediaId) break;
      if (sent.current.has(entry.key)) continue;
      sent.current.add(entry.key);
      const mediaId = entry.mediaId;
      queue.current = queue.current.then(() =>
        add({ mediaId })
          .unwrap()
          .then(() => undefined)
          .catch((error: unknown) => failed('Could not add the photo', error))
          .finally(() => upload.remove(entry.key)),
      );
    }
  }, [add, upload]);
}

function ImageTile({
  url,
  index,
  count,
  busy,
  onMove,
  onRemove,
}: {
  url: string;
  index: number;
  count: number;
  busy: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const name = `Photo ${index + 1} of ${count}`;
  return (
    <Card variant="outlined" component="li" aria-label={name} data-testid="chat-image">
      <Box
        component="img"
        src={url}
        alt={name}
        loading="lazy"
        sx={{ display: 'block', width: '100%', aspectRatio: '3 / 4', objectFit: 'cover', bgcolor: 'action.hover' }}
      />
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', '& .MuiIconButton-root': { width: 44, height: 44 } }}
      >
        <IconButton aria-label={`Move ${name} earlier`} disabled={busy || index === 0} onClick={() => onMove(-1)}>
          <ArrowBack fontSize="small" />
        </IconButton>
        <IconButton aria-label={`Remove ${name}`} disabled={busy} onClick={onRemove}>
          <DeleteOutline fontSize="small" />
        </IconButton>
        <IconButton aria-label={`Move ${name} later`} disabled={busy || index === count - 1} onClick={() => onMove(1)}>
          <ArrowForward fontSize="small" />
        </IconButton>
      </Stack>
    </Card>
  );
}

/**
 * The chat profile's photos (issue 18): up to six, shown to chat partners in this order. New
 * ones are uploaded like any media, then made into public profile images by the server.
 */
export function ChatProfileImages({ images }: { images: string[] }) {
  const upload = useMediaUpload();
  useAddWhenReady(upload);
  const [remove, removing] = useRemoveChatImageMutation();
  const [reorder, reordering] = useReorderChatImagesMutation();
  const busy = removing.isLoading || reordering.isLoading;
  const ids = images.map((url) => publicMediaIdOf(url) ?? url);
  const room = MAX_CHAT_IMAGES - images.length - upload.entries.length;

  const move = (index: number, by: -1 | 1) => {
    const order = [...ids];
    [order[index], order[index + by]] = [order[index + by]!, order[index]!];
    reorder({ mediaIds: order })
      .unwrap()
      .catch((error: unknown) => failed('Could not move the photo', error));
  };
  const drop = (index: number) =>
    remove(ids[index]!)
      .unwrap()
      .catch((error: unknown) => failed('Could not remove the photo', error));

  return (
    <Card component="section" aria-labelledby="chat-images-title">
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h6" component="h2" id="chat-images-title">
          Profile Photos
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          Up to {MAX_CHAT_IMAGES} photos your chat partners see, the first one first. Anyone can see them, so choose
          ones you are happy to share.
        </Typography>
        {images.length > 0 && (
          <Box
            component="ul"
            aria-label="Your profile photos"
            sx={{
              listStyle: 'none',
              m: 0,
              mb: 2,
              p: 0,
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
            }}
          >
            {images.map((url, index) => (
              <ImageTile
                key={url}
                url={url}
                index={index}
                count={images.length}
                busy={busy}
                onMove={(by) => move(index, by)}
                onRemove={() => void drop(index)}
              />
            ))}
          </Box>
        )}
        {room > 0 || upload.entries.length > 0 ? (
          <MediaUploader upload={upload} accept="image/*" label="Add photos" />
        ) : (
          <Typography variant="body2" color="textSecondary">
            Your profile has {MAX_CHAT_IMAGES} photos: remove one to add another.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
