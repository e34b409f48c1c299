import AutoAwesome from '@mui/icons-material/AutoAwesome';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Post } from '@contracts/posts';
import { useCurrentUser } from '@/lib/current-user';
import { COVER_GRADIENT, CoverImage, CreatorCard, CreatorCardSkeleton } from '@/components/creator-card';
import type { ApiDispatch } from '@/lib/api';
import { creatorsApi, useCreatorsQuery, useFeedQuery } from '@/lib/creators-api';
import { PostCard } from '@/components/post-card';
import { SubscribeDialog } from '@/components/subscribe-dialog';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFirstScreen } from '@/lib/use-first-screen';

const FEATURED = 6;

/** What the page shows first, asked for before a server renders it for a member (app/member-page.tsx). */
export async function prefetchHomePage(dispatch: ApiDispatch): Promise<void> {
  const once = { subscribe: false };
  await Promise.all([
    dispatch(creatorsApi.endpoints.creators.initiate({ limit: FEATURED }, once)),
    dispatch(creatorsApi.endpoints.feed.initiate(undefined, once)),
  ]);
}

/** A feed request that failed: says so and offers to ask again (not the empty-feed text). */
function FeedError({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      Could not load your feed. Please try again.
    </Alert>
  );
}

/** One page of the feed; the last page shown offers the next one. */
function FeedPageList({
  cursor,
  isLast,
  onMore,
}: {
  cursor: string | null;
  isLast: boolean;
  onMore: (next: string) => void;
}) {
  const { data, isLoading, isError, refetch } = useFeedQuery(cursor ? { cursor } : undefined);
  const { shown, more } = useFirstScreen(data?.posts ?? []);
  if (isError && !data) return <FeedError onRetry={() => void refetch()} />;
  if (isLoading || !data) return <Skeleton variant="rounded" height={160} />;
  return (
    <>
      {shown.map((post: Post) => (
        <PostCard key={post.id} post={post} />
      ))}
      <div ref={more} />
      {isLast && data.nextCursor && (
        <Button variant="outlined" onClick={() => onMore(data.nextCursor!)}>
          Load more
        </Button>
      )}
    </>
  );
}

/** Kept in the page for assistive technology, drawn nowhere. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px', // a number up to 1 would be a fraction of the parent in sx
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Home (SPEC §2): Become a Creator banner, Featured Creators, Your Feed. */
export function HomePage() {
  useDocumentTitle('Home');
  const { user } = useCurrentUser();
  const creators = useCreatorsQuery({ limit: FEATURED }); // the page shows these, and picks its background among them
  const firstPage = useFeedQuery(undefined);
  const [cursors, setCursors] = useState<string[]>([]);
  const [dialogOpen, setDialogOpen] = useState(false);
  const list = useMemo(() => creators.data ?? [], [creators.data]);
  // A random creator's cover as the page background, chosen once per visit: the covers in an order
  // starting at a random one. A cover that fails to load is passed over for the next; none: the gradient.
  // Chosen once the page runs in the browser, so a page rendered on the server is adopted as it came.
  const [luck, setLuck] = useState<number | null>(null);
  useEffect(() => setLuck(Math.random()), []);
  const covers = useMemo(() => {
    if (luck === null) return [];
    const urls = list.flatMap((creator) => (creator.coverImageUrl ? [creator.coverImageUrl] : []));
    const start = Math.floor(luck * urls.length);
    return [...urls.slice(start), ...urls.slice(0, start)];
  }, [list, luck]);
  const [failedCovers, setFailedCovers] = useState<readonly string[]>([]);
  const background = covers.find((url) => !failedCovers.includes(url)) ?? null;

  return (
    <Box sx={{ position: 'relative', minHeight: 'calc(100vh - 64px)' }}>
      {covers.length > 0 && (
        <Box
          data-testid="home-background"
          aria-hidden
          sx={{
            position: 'fixed',
            inset: 0,
            zIndex: 0,
            overflow: 'hidden',
            background: background ? 'none' : COVER_GRADIENT,
            opacity: 0.15,
            pointerEvents: 'none',
          }}
        >
          {background && (
            <CoverImage
              key={background}
              url={background}
              data-testid="home-background-image"
              onError={() => setFailedCovers((failed) => [...failed, background])}
            />
          )}
        </Box>
      )}
      <Container maxWidth="lg" sx={{ position: 'relative', zIndex: 1, py: 4 }}>
        {/* The page's title for screen readers: its sections are headed, the page had no heading of its own. */}
        <Typography component="h1" sx={VISUALLY_HIDDEN}>
          Home
        </Typography>
        {user && !user.isCreator && (
          <Paper
            sx={{ p: 3, mb: 4, color: 'common.white', background: 'linear-gradient(135deg, #ec4899 0%, #7c3aed 100%)' }}
          >
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <AutoAwesome fontSize="large" />
              <Box sx={{ flex: 1 }}>
                <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                  Become a Creator
                </Typography>
                <Typography>Share exclusive content with your subscribers and keep 90% of your earnings.</Typography>
              </Box>
              <Button
                variant="contained"
                color="inherit"
                sx={{ color: '#7c3aed', bgcolor: 'common.white', '&:hover': { bgcolor: 'grey.100' } }}
                component={RouterLink}
                to="/dashboard"
              >
                Become a Creator
              </Button>
            </Stack>
          </Paper>
        )}

        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
          Featured Creators
        </Typography>
        <Grid container spacing={2} sx={{ mb: 5 }}>
          {creators.isLoading
            ? Array.from({ length: FEATURED }, (_, i) => (
                <Grid key={i} size={{ xs: 12, sm: 6, md: 4 }}>
                  <CreatorCardSkeleton />
                </Grid>
              ))
            : list.slice(0, FEATURED).map((creator) => (
                <Grid key={creator.id} size={{ xs: 12, sm: 6, md: 4 }}>
                  <CreatorCard creator={creator} />
                </Grid>
              ))}
          {!creators.isLoading && list.length === 0 && (
            <Grid size={12}>
              <Typography color="textSecondary">No creators yet.</Typography>
            </Grid>
          )}
        </Grid>

        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
          Your Feed
        </Typography>
        <Stack spacing={2} sx={{ maxWidth: 720 }}>
          {firstPage.isLoading ? (
            <Skeleton variant="rounded" height={160} />
          ) : firstPage.isError && !firstPage.data ? (
            <FeedError onRetry={() => void firstPage.refetch()} />
          ) : (firstPage.data?.posts.length ?? 0) === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
              <Typography color="textSecondary">
                No posts in your feed yet. Subscribe to creators to see their content!
              </Typography>
              <Button
                sx={{ mt: 2 }}
                variant="contained"
                disabled={list.length === 0}
                onClick={() => setDialogOpen(true)}
              >
                Explore Creators
              </Button>
            </Paper>
          ) : (
            [null, ...cursors].map((cursor, index) => (
              <FeedPageList
                key={cursor ?? 'first'}
                cursor={cursor}
                isLast={index === cursors.length}
                onMore={(next) => setCursors((all) => [...all, next])}
              />
            ))
          )}
        </Stack>
      </Container>
      <SubscribeDialog creator={list[0] ?? null} open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </Box>
  );
}
