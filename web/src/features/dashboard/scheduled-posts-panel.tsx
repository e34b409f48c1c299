import Schedule from '@mui/icons-material/Schedule';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Post } from '@contracts/posts';
import { PostComposerDialog } from '@/components/post-composer-dialog';
import { DeletePostDialog } from '@/components/post-owner-menu';
import { useScheduledPostsQuery } from '@/lib/creators-api';
import { formatDateTime } from '@/lib/format';

/** The creator's posts waiting for their time (issue 21), soonest first, each with Edit and Cancel. */
export function ScheduledPostsPanel() {
  const { data: posts, isLoading, isError } = useScheduledPostsQuery();
  const [editing, setEditing] = useState<Post | null>(null);
  const [cancelling, setCancelling] = useState<Post | null>(null);

  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="scheduled-posts">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Scheduled Posts
        </Typography>
        {isLoading ? (
          <Skeleton height={48} />
        ) : isError ? (
          <Typography color="error">Scheduled posts could not be loaded.</Typography>
        ) : !posts?.length ? (
          <Typography color="textSecondary">No scheduled posts. Choose “Publish later” in a new post.</Typography>
        ) : (
          <Stack spacing={1.5}>
            {posts.map((post) => (
              <Stack
                key={post.id}
                data-testid="scheduled-post"
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ alignItems: { sm: 'center' }, borderTop: 1, borderColor: 'divider', pt: 1.5 }}
              >
                <Box sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                  <Typography sx={{ fontWeight: 600 }}>{post.title}</Typography>
                  <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                    <Schedule fontSize="small" />
                    <Typography variant="body2">Publishes {formatDateTime(post.scheduledAt)}</Typography>
                  </Stack>
                </Box>
                <Stack direction="row" spacing={1} sx={{ '& .MuiButton-root': { minHeight: 44 } }}>
                  <Button variant="outlined" onClick={() => setEditing(post)} aria-label={`Edit ${post.title}`}>
                    Edit
                  </Button>
                  <Button
                    variant="outlined"
                    color="error"
                    onClick={() => setCancelling(post)}
                    aria-label={`Cancel ${post.title}`}
                  >
                    Cancel
                  </Button>
                </Stack>
              </Stack>
            ))}
          </Stack>
        )}
      </CardContent>
      {editing && <PostComposerDialog open post={editing} onClose={() => setEditing(null)} />}
      {cancelling && <DeletePostDialog open post={cancelling} onClose={() => setCancelling(null)} />}
    </Card>
  );
}
