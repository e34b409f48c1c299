import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toast } from './toast';
import { isUnauthorized } from '@/lib/api';
import { useAddCommentMutation, useCommentsQuery } from '@/lib/creators-api';
import { refusalText } from '@/lib/safety-api';

/** Comments under a post the member can read, and a box to add one. */
export function PostComments({ postId }: { postId: string }) {
  const { data: comments = [], isLoading } = useCommentsQuery(postId);
  const [add, { isLoading: sending }] = useAddCommentMutation();
  const [text, setText] = useState('');

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
            <Box key={comment.id}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {comment.userName}
              </Typography>
              <Typography variant="body2">{comment.content}</Typography>
            </Box>
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
