import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useState } from 'react';
import { clockDuration } from '@/lib/format';
import { focusRing } from './focus-ring';

const fill = { width: '100%', height: '100%', display: 'block', bgcolor: 'common.black' };

/**
 * A video that is its poster and a play button until it is tapped, then the browser's player,
 * playing (the tap is the member's gesture, so it may play with sound).
 *
 * Why not the player at once: a `<video controls>` in the page makes the browser build its
 * controls (a shadow tree with a style sheet of its own) as the page is styled. On a phone that
 * was 150-250 ms of one task for a single feed video, on every load of home or a creator page,
 * and a request for the file's first bytes, for a video most members scroll past.
 */
export function VideoPlayer({
  src,
  poster,
  label,
  durationSeconds,
}: {
  src: string;
  poster?: string;
  label: string;
  durationSeconds?: number;
}) {
  const [playing, setPlaying] = useState(false);
  if (playing)
    return (
      <Box
        component="video"
        // Focus follows the member from the play button they pressed to the player.
        ref={(node: HTMLVideoElement | null) => node?.focus()}
        src={src}
        poster={poster}
        controls
        autoPlay
        playsInline
        aria-label={label}
        sx={{ ...fill, objectFit: 'contain' }}
      />
    );
  const length = durationSeconds ? clockDuration(durationSeconds) : '';
  // The length shown on the poster is part of the button's name, as what is seen is what is said.
  return (
    <ButtonBase
      aria-label={`Play video: ${label}${length && `, ${length}`}`}
      onClick={() => setPlaying(true)}
      sx={{ ...fill, ...focusRing }}
    >
      {poster && <Box component="img" src={poster} alt="" loading="lazy" sx={{ ...fill, objectFit: 'contain' }} />}
      <PlayCircleOutline
        aria-hidden
        sx={{
          position: 'absolute',
          inset: 0,
          m: 'auto',
          fontSize: 64,
          color: 'common.white',
          filter: 'drop-shadow(0 1px 4px rgba(0,0,0,0.6))',
        }}
      />
      {length && (
        <Box
          component="span"
          sx={{
            position: 'absolute',
            right: 8,
            bottom: 8,
            px: 0.75,
            borderRadius: 0.5,
            bgcolor: 'rgba(0,0,0,0.7)',
            color: 'common.white',
            typography: 'caption',
            fontWeight: 600,
          }}
        >
          {length}
        </Box>
      )}
    </ButtonBase>
  );
}
