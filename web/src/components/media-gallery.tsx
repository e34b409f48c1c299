import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useRef, useState, type ReactNode } from 'react';
import type { MediaAttachment } from '@contracts/media';
import { focusRing } from './focus-ring';
import { VideoPlayer } from './video-player';

/** A photo's alt text: the post's or message's title and its place in the gallery. */
const altOf = (alt: string, index: number, count: number) => (count > 1 ? `${alt} (${index + 1} of ${count})` : alt);

/**
 * Which tiles take a whole row: videos, and a photo with no photo beside it to pair with (one
 * item alone, or a photo next to a video), so the two-column grid never leaves a hole.
 */
function wideTiles(media: MediaAttachment[]): boolean[] {
  const wide: boolean[] = [];
  for (let index = 0; index < media.length; index++) {
    const pairs = media[index]!.kind === 'image' && media[index + 1]?.kind === 'image';
    if (pairs) {
      wide.push(false, false);
      index++;
    } else wide.push(true);
  }
  return wide;
}

function tileSx(media: MediaAttachment, wide: boolean, single: boolean) {
  const own = `${media.width || 4} / ${media.height || 3}`;
  const ratio = single || media.kind === 'video' ? own : wide ? '2 / 1' : '1 / 1';
  return {
    gridColumn: wide ? '1 / -1' : 'auto',
    aspectRatio: ratio,
    maxHeight: 520,
    width: '100%',
    overflow: 'hidden',
    borderRadius: 1,
    bgcolor: 'action.hover',
    position: 'relative' as const,
  };
}

const fill = { width: '100%', height: '100%', objectFit: 'cover' as const, display: 'block' };

/** A blurred preview (the viewer is not entitled): the server made it, nothing to open. */
function Preview({ media }: { media: MediaAttachment }) {
  return (
    <>
      <Box component="img" src={media.previewUrl} alt="" loading="lazy" sx={{ ...fill, transform: 'scale(1.05)' }} />
      {media.kind === 'video' && (
        <PlayCircleOutline
          aria-hidden
          sx={{ position: 'absolute', inset: 0, m: 'auto', fontSize: 56, color: 'common.white', opacity: 0.85 }}
        />
      )}
    </>
  );
}

function Lightbox({
  photos,
  alt,
  index,
  onIndex,
  onClose,
}: {
  photos: MediaAttachment[];
  alt: string;
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const swipeFrom = useRef<number | null>(null);
  const count = photos.length;
  const open = index !== null && index < count;
  const current = open ? photos[index] : undefined;
  const go = (by: number) => index !== null && onIndex((index + by + count) % count);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="lg"
      aria-label={current ? altOf(alt, index!, count) : alt}
      slotProps={{ paper: { sx: { bgcolor: 'common.black', color: 'common.white', position: 'relative' } } }}
      onKeyDown={(event) => {
        if (count < 2) return;
        if (event.key === 'ArrowRight') go(1);
        if (event.key === 'ArrowLeft') go(-1);
      }}
    >
      {current && (
        <Box
          onPointerDown={(event) => (swipeFrom.current = event.clientX)}
          onPointerUp={(event) => {
            const from = swipeFrom.current;
            swipeFrom.current = null;
            if (from === null || count < 2 || Math.abs(event.clientX - from) < 50) return;
            go(event.clientX < from ? 1 : -1);
          }}
          sx={{ display: 'grid', placeItems: 'center', height: '100%', minHeight: 240, touchAction: 'pan-y' }}
        >
          <Box
            component="img"
            src={current.url}
            alt={altOf(alt, index!, count)}
            draggable={false}
            sx={{ maxWidth: '100%', maxHeight: { xs: '100dvh', sm: '85vh' }, objectFit: 'contain', display: 'block' }}
          />
        </Box>
      )}
      <IconButton
        aria-label="Close"
        onClick={onClose}
        sx={{ position: 'absolute', top: 8, right: 8, color: 'common.white', bgcolor: 'rgba(0,0,0,0.5)' }}
      >
        <Close />
      </IconButton>
      {count > 1 && (
        <>
          <IconButton
            aria-label="Previous photo"
            onClick={() => go(-1)}
            sx={{ position: 'absolute', left: 8, top: '50%', color: 'common.white', bgcolor: 'rgba(0,0,0,0.5)' }}
          >
            <ChevronLeft />
          </IconButton>
          <IconButton
            aria-label="Next photo"
            onClick={() => go(1)}
            sx={{ position: 'absolute', right: 8, top: '50%', color: 'common.white', bgcolor: 'rgba(0,0,0,0.5)' }}
          >
            <ChevronRight />
          </IconButton>
          <Typography
            variant="caption"
            sx={{ position: 'absolute', bottom: 12, left: 0, right: 0, textAlign: 'center' }}
          >
            {index! + 1} / {count}
          </Typography>
        </>
      )}
    </Dialog>
  );
}

/**
 * The photos and videos of a post or message (issue 18). Items the viewer is entitled to carry
 * `url`: photos open a lightbox, videos play in place when tapped. Others show the server's
 * blurred preview, and `lockedOverlay` (the post's or message's own locked prompt) covers the
 * gallery.
 */
export function MediaGallery({
  media,
  alt,
  lockedOverlay,
}: {
  media: MediaAttachment[];
  alt: string;
  lockedOverlay?: ReactNode;
}) {
  const [open, setOpen] = useState<number | null>(null);
  if (media.length === 0) return null;
  const photos = media.filter((item) => item.kind === 'image' && item.url);
  const locked = media.some((item) => !item.url);
  // Behind a locked prompt four previews say enough.
  const shown = locked && lockedOverlay ? media.slice(0, 4) : media;
  const wide = wideTiles(shown);
  const tile = (index: number) => tileSx(shown[index]!, wide[index]!, shown.length === 1);

  return (
    <Box data-testid="media-gallery" sx={{ position: 'relative', mt: 1.5 }}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: shown.length === 1 ? '1fr' : '1fr 1fr',
          gap: 0.5,
          // Behind a locked prompt the previews take a fixed height the prompt fits in.
          ...(locked && lockedOverlay ? { height: { xs: 260, sm: 320 }, gridAutoRows: '1fr' } : {}),
        }}
      >
        {shown.map((item, index) => {
          const label = altOf(alt, index, media.length);
          if (!item.url)
            return (
              <Box
                key={item.id}
                data-testid="media-preview"
                sx={{
                  ...tile(index),
                  ...(lockedOverlay ? { aspectRatio: 'auto', height: '100%' } : {}),
                }}
              >
                <Preview media={item} />
              </Box>
            );
          if (item.kind === 'video')
            return (
              <Box key={item.id} sx={tile(index)}>
                <VideoPlayer
                  src={item.url}
                  poster={item.posterUrl ?? item.previewUrl}
                  label={label}
                  durationSeconds={item.durationSeconds}
                />
              </Box>
            );
          return (
            <ButtonBase
              key={item.id}
              aria-label={`Open photo: ${label}`}
              onClick={() => setOpen(photos.indexOf(item))}
              sx={{ ...tile(index), ...focusRing }}
            >
              <Box component="img" src={item.url} alt={label} loading="lazy" sx={fill} />
            </ButtonBase>
          );
        })}
      </Box>
      {locked && lockedOverlay && (
        <Box
          data-testid="media-locked-overlay"
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(0,0,0,0.45)',
            color: 'common.white',
            borderRadius: 1,
            p: 2,
            textAlign: 'center',
          }}
        >
          {lockedOverlay}
        </Box>
      )}
      <Lightbox photos={photos} alt={alt} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
    </Box>
  );
}
