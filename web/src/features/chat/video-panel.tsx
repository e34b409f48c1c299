import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';

/** A video tile with its label and what to show when there is no picture. */
export function VideoPanel({
  stream,
  label,
  placeholder,
  muted = false,
  testId,
}: {
  stream: MediaStream | null;
  label: string;
  placeholder: string | null;
  muted?: boolean;
  testId: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && video.current.srcObject !== stream) video.current.srcObject = stream;
  }, [stream]);
  return (
    <Box sx={{ position: 'relative', aspectRatio: '4 / 3', bgcolor: 'grey.900', borderRadius: 2, overflow: 'hidden' }}>
      <video
        ref={video}
        data-testid={testId}
        autoPlay
        playsInline
        muted={muted}
        style={{
          width: '100%',
          height: '100%',
          objectFit: 'cover',
          display: stream && !placeholder ? 'block' : 'none',
        }}
      />
      {placeholder && (
        <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'grey.300' }}>
          <Typography>{placeholder}</Typography>
        </Box>
      )}
      <Box
        sx={{
          position: 'absolute',
          left: 8,
          bottom: 8,
          px: 1,
          py: 0.25,
          borderRadius: 1,
          bgcolor: 'rgba(0,0,0,0.6)',
          color: 'common.white',
        }}
      >
        <Typography variant="body2">{label}</Typography>
      </Box>
    </Box>
  );
}
