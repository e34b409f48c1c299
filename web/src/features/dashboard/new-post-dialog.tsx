import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { createPostSchema } from '@contracts/posts';
import { MediaUploader } from '@/components/media-uploader';
import { toast } from '@/components/toast';
import { isUnauthorized } from '@/lib/api';
import { useCreatePostMutation } from '@/lib/creators-api';
import { IdentityRequiredAlert } from '@/components/identity-required-alert';
import { identityRequiredText } from '@/lib/verification-api';
import { useMediaUpload } from '@/lib/use-media-upload';

const EMPTY = { title: '', content: '', mediaUrl: '', isPublic: false };

/**
 * The New Post modal (SPEC §2 Dashboard, §5 validation) with uploaded photos and videos (issue
 * 18): Create Post waits until every file is processed, then sends their ids in the order shown.
 * `initialMediaIds`: items picked in the vault ("Use in a post").
 */
export function NewPostDialog({
  open,
  onClose,
  initialMediaIds = [],
}: {
  open: boolean;
  onClose: () => void;
  initialMediaIds?: string[];
}) {
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [needsIdentity, setNeedsIdentity] = useState<string | null>(null);
  const [create, { isLoading }] = useCreatePostMutation();
  const upload = useMediaUpload();
  const { addExisting, remove, clear } = upload;
  const preselected = open ? initialMediaIds.join(',') : '';

  useEffect(() => {
    if (!preselected) return;
    const keys = preselected.split(',').map(addExisting);
    return () => keys.forEach(remove);
  }, [preselected, addExisting, remove]);

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    setNeedsIdentity(null);
    clear();
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createPostSchema.safeParse(form);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    try {
      await create({
        title: parsed.data.title,
        content: parsed.data.content,
        isPublic: parsed.data.isPublic,
        ...(parsed.data.mediaUrl ? { mediaUrl: parsed.data.mediaUrl } : {}),
        ...(upload.mediaIds.length ? { mediaIds: upload.mediaIds } : {}),
      }).unwrap();
      toast({ title: 'Post created!', description: 'Your post has been published.' });
      close();
    } catch (error) {
      const identity = identityRequiredText(error);
      if (identity) return setNeedsIdentity(identity);
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to create post. Please try again.', variant: 'destructive' });
    }
  };

  const field = (name: 'title' | 'content' | 'mediaUrl') => ({
    value: form[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name],
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="new-post-title">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="new-post-title">New Post</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            {needsIdentity && <IdentityRequiredAlert message={needsIdentity} />}
            <TextField label="Title" required {...field('title')} />
            <TextField label="Content" required multiline minRows={4} {...field('content')} />
            <TextField
              label="Media URL (optional)"
              placeholder="https://example.com/photo.jpg"
              {...field('mediaUrl')}
            />
            <MediaUploader upload={upload} />
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.isPublic}
                  onChange={(event) => setForm((current) => ({ ...current, isPublic: event.target.checked }))}
                />
              }
              label="Make public (visible to all users)"
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap' }}>
          {!upload.allReady && (
            <Typography variant="caption" color="textSecondary" sx={{ flex: '1 1 auto', px: 1 }}>
              Create Post waits until every file is ready (remove failed ones).
            </Typography>
          )}
          <Button onClick={close} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading || !upload.allReady}>
            {isLoading ? 'Creating...' : 'Create Post'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
