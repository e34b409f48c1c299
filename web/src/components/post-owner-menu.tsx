import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useId, useState } from 'react';
import type { Post } from '@contracts/posts';
import { isUnauthorized } from '@/lib/api';
import { useDeletePostMutation } from '@/lib/creators-api';
import { refusalOf } from './post-refusal';

// The editor (its fields and media upload) loads when the owner first edits: the menu is on every post they see.
const PostComposerDialog = lazy(async () => ({ default: (await import('./post-composer-dialog')).PostComposerDialog }));
import { toast } from './toast';

/**
 * Deletes a post after asking (issue 21); a scheduled post is cancelled. `onDeleted` runs once
 * it is gone.
 */
export function DeletePostDialog({
  post,
  open,
  onClose,
  onDeleted,
}: {
  post: Post;
  open: boolean;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const [remove, { isLoading }] = useDeletePostMutation();
  const titleId = useId();
  const scheduled = Boolean(post.scheduledAt);
  const confirm = async () => {
    try {
      await remove(post.id).unwrap();
      toast({ title: scheduled ? 'Scheduled post cancelled' : 'Post deleted' });
      onClose();
      onDeleted?.();
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: refusalOf(error) ?? 'Failed to delete the post.',
          variant: 'destructive',
        });
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{scheduled ? 'Cancel this scheduled post?' : 'Delete this post?'}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {scheduled
            ? `“${post.title}” will not be published. This cannot be undone.`
            : `“${post.title}” disappears for everyone, with its likes and comments. This cannot be undone.`}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          Keep it
        </Button>
        <Button color="error" variant="contained" onClick={confirm} disabled={isLoading}>
          {scheduled ? 'Cancel Post' : 'Delete Post'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The creator's menu on their own post (issue 21): edit it in the composer, or delete it. */
export function PostOwnerMenu({ post }: { post: Post }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const choose = (which: 'edit' | 'delete') => {
    setAnchor(null);
    setDialog(which);
  };
  return (
    <>
      <IconButton
        aria-label={`Post options for ${post.title}`}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ width: 44, height: 44 }}
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('edit')} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <EditOutlined fontSize="small" />
          </ListItemIcon>
          Edit post
        </MenuItem>
        <MenuItem onClick={() => choose('delete')} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <DeleteOutline fontSize="small" />
          </ListItemIcon>
          Delete post
        </MenuItem>
      </Menu>
      <Suspense fallback={null}>
        {dialog === 'edit' && <PostComposerDialog open post={post} onClose={() => setDialog(null)} />}
      </Suspense>
      <DeletePostDialog post={post} open={dialog === 'delete'} onClose={() => setDialog(null)} />
    </>
  );
}
