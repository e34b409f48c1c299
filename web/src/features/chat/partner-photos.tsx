import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

/** The chat partner's profile photos (issue 18), beside their video; a tap shows one large. */
export function PartnerPhotos({ name, photos }: { name: string; photos: readonly string[] }) {
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const label = (index: number) => `${name}'s photo ${index + 1} of ${photos.length}`;
  return (
    <Box component="section" aria-label={`${name}'s photos`} sx={{ mt: 1 }}>
      <Typography variant="caption" color="textSecondary">
        {name}&apos;s photos
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', rowGap: 1 }}>
        {photos.map((url, index) => (
          <ButtonBase
            key={url}
            aria-label={`Show ${label(index)}`}
            onClick={() => setOpen(index)}
            sx={{ borderRadius: 1, overflow: 'hidden' }}
          >
            <Box
              component="img"
              src={url}
              alt=""
              sx={{ width: 56, height: 56, objectFit: 'cover', display: 'block', bgcolor: 'action.hover' }}
            />
          </ButtonBase>
        ))}
      </Stack>
      <Dialog open={open !== null} onClose={() => setOpen(null)} maxWidth="sm" aria-labelledby="partner-photo-title">
        <DialogTitle id="partner-photo-title">{open !== null && label(open)}</DialogTitle>
        <DialogContent>
          {open !== null && (
            <Box
              component="img"
              src={photos[open]}
              alt={label(open)}
              sx={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', mx: 'auto' }}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)} sx={{ minHeight: 44 }}>
            Close
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
