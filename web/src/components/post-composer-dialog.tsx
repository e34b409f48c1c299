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
import { createPostSchema, type EditPostRequest, type Post } from '@contracts/posts';
import { MediaUploader } from './media-uploader';
import { toast } from './toast';
import { isUnauthorized } from '@/lib/api';
import { useCreatePostMutation, useEditPostMutation } from '@/lib/creators-api';
import { formatDateTime } from '@/lib/format';
import { IdentityRequiredAlert } from './identity-required-alert';
import { identityRequiredText } from '@/lib/verification-api';
import { refusalOf } from './post-refusal';
import { useMediaUpload } from '@/lib/use-media-upload';

interface Form {
  title: string;
  content: string;
  mediaUrl: string;
  isPublic: boolean;
  /** Publish later: the `datetime-local` value (local time), '' for now. */
  publishAt: string;
  later: boolean;
}

const EMPTY: Form = { title: '', content: '', mediaUrl: '', isPublic: false, publishAt: '', later: false };

const twoDigits = (n: number) => String(n).padStart(2, '0');
/** A moment as a `datetime-local` input shows it, in the browser's time zone. */
function localInputValue(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())}T${twoDigits(d.getHours())}:${twoDigits(d.getMinutes())}`;
}

function formOf(post: Post | undefined): Form {
  if (!post) return EMPTY;
  return {
    title: post.title,
    content: post.content ?? '',
    mediaUrl: post.mediaUrl ?? '',
    isPublic: post.isPublic,
    publishAt: post.scheduledAt ? localInputValue(post.scheduledAt) : '',
    later: Boolean(post.scheduledAt),
  };
}

/** What an edit sends: the fields that changed. */
function changesOf(post: Post, form: Form, mediaIds: string[], scheduledAt: string | undefined): EditPostRequest {
  const changes: EditPostRequest = {};
  if (form.title.trim() !== post.title) changes.title = form.title;
  if (form.content.trim() !== (post.content ?? '')) changes.content = form.content;
  if (form.isPublic !== post.isPublic) changes.isPublic = form.isPublic;
  if (form.mediaUrl.trim() && form.mediaUrl.trim() !== (post.mediaUrl ?? '')) changes.mediaUrl = form.mediaUrl;
  if (mediaIds.join(',') !== post.media.map((item) => item.id).join(',')) changes.mediaIds = mediaIds;
  if (scheduledAt && scheduledAt !== post.scheduledAt) changes.scheduledAt = scheduledAt;
  return changes;
}

/**
 * The post composer (SPEC §2 Dashboard, §5 validation): a new post, or (given `post`) its
 * creator's edit of it. Uploaded photos and videos (issue 18): it waits until every file is
 * processed, then sends their ids in the order shown; `initialMediaIds` are items picked in the
 * vault ("Use in a post"). Issue 21: "Publish later" schedules it (and moves a scheduled post).
 * The form starts from `post` when mounted: mount an edit dialog when it opens.
 */
export function PostComposerDialog({
  open,
  onClose,
  post,
  initialMediaIds = [],
}: {
  open: boolean;
  onClose: () => void;
  post?: Post;
  initialMediaIds?: string[];
}) {
  const [form, setForm] = useState<Form>(() => formOf(post));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [needsIdentity, setNeedsIdentity] = useState<string | null>(null);
  const [create, { isLoading: creating }] = useCreatePostMutation();
  const [edit, { isLoading: saving }] = useEditPostMutation();
  const isLoading = creating || saving;
  const upload = useMediaUpload();
  const { addExisting, remove, clear } = upload;
  const editing = Boolean(post);
  const preselected = open ? (post ? post.media.map((item) => item.id) : initialMediaIds).join(',') : '';

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

  /** The chosen time as ISO 8601, or an error; undefined for "now". */
  const scheduledAt = (): { value?: string; error?: string } => {
    if (!form.later) return {};
    const at = new Date(form.publishAt);
    if (!form.publishAt || Number.isNaN(at.getTime())) return { error: 'Choose when to publish' };
    if (at.getTime() <= Date.now()) return { error: 'Choose a time in the future' };
    return { value: at.toISOString() };
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createPostSchema.safeParse({ ...form, publishAt: undefined, later: undefined });
    const when = scheduledAt();
    if (!parsed.success || when.error) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
      if (when.error) fields.publishAt = when.error;
      setErrors(fields);
      return;
    }
    try {
      if (post) {
        const changes = changesOf(post, form, upload.mediaIds, when.value);
        if (Object.keys(changes).length) await edit({ postId: post.id, changes }).unwrap();
        toast({ title: 'Post updated', description: 'Your changes are saved.' });
      } else {
        await create({
          title: parsed.data.title,
          content: parsed.data.content,
          isPublic: parsed.data.isPublic,
          ...(parsed.data.mediaUrl ? { mediaUrl: parsed.data.mediaUrl } : {}),
          ...(upload.mediaIds.length ? { mediaIds: upload.mediaIds } : {}),
          ...(when.value ? { scheduledAt: when.value } : {}),
        }).unwrap();
        toast(
          when.value
            ? { title: 'Post scheduled', description: `It will be published ${formatDateTime(when.value)}.` }
            : { title: 'Post created!', description: 'Your post has been published.' },
        );
      }
      close();
    } catch (error) {
      const identity = identityRequiredText(error);
      if (identity) return setNeedsIdentity(identity);
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: refusalOf(error) ?? `Failed to ${editing ? 'save the post' : 'create post'}. Please try again.`,
          variant: 'destructive',
        });
    }
  };

  const field = (name: 'title' | 'content' | 'mediaUrl' | 'publishAt') => ({
    value: form[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name],
  });
  const submitLabel = editing ? 'Save Changes' : form.later ? 'Schedule Post' : 'Create Post';

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="post-composer-title">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="post-composer-title">{editing ? 'Edit Post' : 'New Post'}</DialogTitle>
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
            {!editing && (
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.later}
                    onChange={(event) => setForm((current) => ({ ...current, later: event.target.checked }))}
                  />
                }
                label="Publish later"
              />
            )}
            {/* A scheduled post keeps a time: its edit moves it (no "publish now"). */}
            {form.later && (
              <TextField
                label="Publish at"
                type="datetime-local"
                slotProps={{ inputLabel: { shrink: true } }}
                {...field('publishAt')}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap' }}>
          {!upload.allReady && (
            <Typography variant="caption" color="textSecondary" sx={{ flex: '1 1 auto', px: 1 }}>
              {submitLabel} waits until every file is ready (remove failed ones).
            </Typography>
          )}
          <Button onClick={close} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading || !upload.allReady}>
            {isLoading ? 'Saving...' : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
