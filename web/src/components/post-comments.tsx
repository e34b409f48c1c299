import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from './toast';
import { isUnauthorized } from '@/lib/api';
import type { Comment } from '@contracts/posts';
import { useAddCommentMutation, useCommentsQuery, useDeleteCommentMutation } from '@/lib/creators-api';
import { useCurrentUser } from '@/lib/current-user';
import { refusalText } from '@/lib/safety-api';

/**
 * Comments under a post the member can read, and a box to add one. A comment's author, and the
 * post's creator, may delete it (issue 21).
 */
export function PostComments({ postId, creatorId }: { postId: string; creatorId: string }) {
  const { data: comments = [], isLoading } = useCommentsQuery(postId);
  const [add, { isLoading: sending }] = useAddCommentMutation();
  const [removeComment, { isLoading: removing }] = useDeleteCommentMutation();
  const [text, setText] = useState('');
  const { user } = useCurrentUser();
  const mayDelete = (comment: Comment) => Boolean(user) && (user!.id === comment.userId || user!.id === creatorId);

  const deleteOne = async (comment: Comment) => {
    try {
      await removeComment({ postId, commentId: comment.id }).unwrap();
      toast({ title: 'Comment deleted' });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: refusalText(error) ?? 'Failed to delete the comment.',
          variant: 'destructive',
        });
    }
  };

  const submit = async () => {
    const content = text.trim();
    if (!content) return;
    try {
      await add({ postId, content }).unwrap();
      setText('');
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: refusalText(error) ?? 'Failed to add comment.', variant: 'destructive' });
    }
  };

  return (
    <Box sx={{ mt: 1.5, pt: 1.5, borderTop: 1, borderColor: 'divider' }}>
      {isLoading ? (
        <Typography variant="body2" color="textSecondary">
          Loading comments...
        </Typography>
      ) : comments.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No comments yet
        </Typography>
      ) : (
        <Stack spacing={1}>
          {comments.map((comment) => (
            <Stack key={comment.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <Box sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {comment.userName}
                </Typography>
                <Typography variant="body2">{comment.content}</Typography>
              </Box>
              {mayDelete(comment) && (
                <IconButton
                  aria-label={`Delete comment by ${comment.userName}`}
                  disabled={removing}
                  onClick={() => deleteOne(comment)}
                  sx={{ width: 44, height: 44 }}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              )}
            </Stack>
          ))}
        </Stack>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        <TextField
          size="small"
          fullWidth
          placeholder="Write a comment..."
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && submit()}
        />
        <Button variant="outlined" disabled={!text.trim() || sending} onClick={submit}>
          Comment
        </Button>
      </Stack>
    </Box>
  );
}
