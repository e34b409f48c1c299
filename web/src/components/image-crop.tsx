import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';

/** A rectangle in the image's own pixels. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The largest centred rectangle of `aspect` (width / height) scaled by `zoom` (1 = largest). */
export function centredCrop(width: number, height: number, aspect: number, zoom = 1): CropRect {
  const fitWidth = Math.min(width, height * aspect) / zoom;
  const cropWidth = Math.max(1, Math.round(fitWidth));
  const cropHeight = Math.max(1, Math.round(fitWidth / aspect));
  return {
    x: Math.round((width - cropWidth) / 2),
    y: Math.round((height - cropHeight) / 2),
    width: cropWidth,
    height: cropHeight,
  };
}

/** Keeps the rectangle inside the image. */
export function clampCrop(crop: CropRect, width: number, height: number): CropRect {
  return {
    ...crop,
    x: Math.round(Math.min(Math.max(0, crop.x), width - crop.width)),
    y: Math.round(Math.min(Math.max(0, crop.y), height - crop.height)),
  };
}

/**
 * A fixed-aspect crop box over an image: drag the box (pointer or arrow keys) to place it, the
 * slider to zoom. `width`/`height` are the image's real pixels (the shown picture may be a
 * smaller variant of it); the crop is reported in those pixels.
 */
export function ImageCrop({
  src,
  width,
  height,
  aspect,
  round = false,
  onChange,
}: {
  src: string;
  width: number;
  height: number;
  aspect: number;
  round?: boolean;
  onChange: (crop: CropRect) => void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; crop: CropRect } | null>(null);
  const [zoom, setZoom] = useState(1);
  const [crop, setCrop] = useState(() => centredCrop(width, height, aspect));

  useEffect(() => onChange(crop), [crop, onChange]);

  /** Image pixels per screen pixel of the frame as it is laid out now. */
  const scale = () => width / (frame.current?.getBoundingClientRect().width || width);

  const zoomTo = (value: number) => {
    setZoom(value);
    setCrop((current) => {
      const next = centredCrop(width, height, aspect, value);
      const centre = { x: current.x + current.width / 2, y: current.y + current.height / 2 };
      return clampCrop({ ...next, x: centre.x - next.width / 2, y: centre.y - next.height / 2 }, width, height);
    });
  };

  const moveBy = (dx: number, dy: number) =>
    setCrop((current) => clampCrop({ ...current, x: current.x + dx, y: current.y + dy }, width, height));

  const percent = (value: number, of: number) => `${(value / of) * 100}%`;
  return (
    <Stack spacing={2}>
      <Box
        ref={frame}
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: `${width} / ${height}`,
          overflow: 'hidden',
          touchAction: 'none',
        }}
      >
        <Box
          component="img"
          src={src}
          alt=""
          draggable={false}
          sx={{ width: '100%', height: '100%', display: 'block' }}
        />
        <Box
          role="slider"
          tabIndex={0}
          aria-label="Crop area: drag or use the arrow keys to move it"
          aria-valuetext={`${crop.width} by ${crop.height} pixels at ${crop.x}, ${crop.y}`}
          data-testid="crop-box"
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture?.(event.pointerId);
            drag.current = { x: event.clientX, y: event.clientY, crop };
          }}
          onPointerMove={(event) => {
            const start = drag.current;
            if (!start) return;
            const s = scale();
            setCrop(
              clampCrop(
                {
                  ...start.crop,
                  x: start.crop.x + (event.clientX - start.x) * s,
                  y: start.crop.y + (event.clientY - start.y) * s,
                },
                width,
                height,
              ),
            );
          }}
          onPointerUp={() => (drag.current = null)}
          onKeyDown={(event) => {
            const step = Math.max(1, Math.round(width / 50));
            const moves: Record<string, [number, number]> = {
              ArrowLeft: [-step, 0],
              ArrowRight: [step, 0],
              ArrowUp: [0, -step],
              ArrowDown: [0, step],
            };
            const move = moves[event.key];
            if (!move) return;
            event.preventDefault();
            moveBy(...move);
          }}
          sx={{
            position: 'absolute',
            left: percent(crop.x, width),
            top: percent(crop.y, height),
            width: percent(crop.width, width),
            height: percent(crop.height, height),
            borderRadius: round ? '50%' : 0,
            border: 2,
            borderColor: 'common.white',
            // Everything outside the box is dimmed.
            boxShadow: '0 0 0 9999px rgba(0,0,0,0.55)',
            cursor: 'move',
            '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main' },
          }}
        />
      </Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', px: 1 }}>
        <Typography variant="body2" id="crop-zoom-label">
          Zoom
        </Typography>
        <Slider
          value={zoom}
          min={1}
          max={4}
          step={0.05}
          onChange={(_event, value) => zoomTo(value as number)}
          slotProps={{ input: { 'aria-labelledby': 'crop-zoom-label' } }}
        />
      </Stack>
    </Stack>
  );
}
