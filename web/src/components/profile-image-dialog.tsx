import Button, { type ButtonProps } from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useCallback, useState } from 'react';
import { centredCrop, ImageCrop, type CropRect } from '@/components/image-crop';
import { MediaUploader } from '@/components/media-uploader';
import { toast } from '@/components/toast';
import { errorMessage, isUnauthorized, serverErrorText } from '@/lib/api';
import { useMediaItemQuery, useSetProfileImageMutation, type ProfileImageSlot } from '@/lib/media-api';
import { useMediaUpload } from '@/lib/use-media-upload';

const SLOTS: Record<ProfileImageSlot, { title: string; aspect: number; done: string }> = {
  avatar: { title: 'Profile photo', aspect: 1, done: 'Your profile photo was updated.' },
  cover: { title: 'Cover image', aspect: 3, done: 'Your cover image was updated.' },
};

/**
 * Upload a photo, crop it to the slot's shape (a square avatar, a 3:1 cover) and set it
 * (issue 18): PUT /api/me/avatar or /api/creators/me/cover with the media id and the crop in
 * the image's own pixels; the server makes the cropped public copy.
 */
export function ProfileImageDialog({
  slot,
  open,
  onClose,
}: {
  slot: ProfileImageSlot;
  open: boolean;
  onClose: () => void;
}) {
  const { title, aspect, done } = SLOTS[slot];
  const upload = useMediaUpload();
  const ready = upload.entries.find((entry) => entry.phase === 'ready' && entry.mediaId);
  const { data: item } = useMediaItemQuery(ready?.mediaId ?? '', { skip: !ready });
  const [crop, setCrop] = useState<CropRect | null>(null);
  const [save, { isLoading }] = useSetProfileImageMutation();
  const onCrop = useCallback((next: CropRect) => setCrop(next), []);

  const close = () => {
    upload.clear();
    setCrop(null);
    onClose();
  };

  const preview = item?.thumbnailUrl && item.width && item.height ? item : null;

  const submit = async () => {
    if (!ready?.mediaId || !preview) return;
    // Untouched, the box is where it started: the largest centred rectangle.
    const chosen = crop ?? centredCrop(preview.width!, preview.height!, aspect);
    try {
      await save({ slot, mediaId: ready.mediaId, crop: chosen }).unwrap();
      toast({ title: 'Saved', description: done });
      close();
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: serverErrorText(error) ?? errorMessage(error), variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="profile-image-title">
      <DialogTitle id="profile-image-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {preview ? (
            <ImageCrop
              key={preview.id}
              src={preview.thumbnailUrl!}
              width={preview.width!}
              height={preview.height!}
              aspect={aspect}
              round={slot === 'avatar'}
              onChange={onCrop}
            />
          ) : (
            <MediaUploader upload={upload} accept="image/*" label="Upload a photo" />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={isLoading}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={!preview || isLoading}>
          {isLoading ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A button opening the dialog for one slot. */
export function ProfileImageButton({
  slot,
  label,
  ...button
}: { slot: ProfileImageSlot; label: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button {...button} onClick={() => setOpen(true)} sx={{ minHeight: 44, ...button.sx }}>
        {label}
      </Button>
      <ProfileImageDialog slot={slot} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
