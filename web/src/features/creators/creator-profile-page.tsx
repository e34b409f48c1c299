import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Block from '@mui/icons-material/Block';
import Edit from '@mui/icons-material/Edit';
import Message from '@mui/icons-material/Message';
import Star from '@mui/icons-material/Star';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { useCurrentUser } from '@/lib/current-user';
import { CoverBanner } from '@/components/creator-card';
import { countOf, usd } from '@/lib/format';
import type { ApiDispatch } from '@/lib/api';
import { creatorsApi, useCreatorPostsQuery, useCreatorQuery, useSubscriptionCheckQuery } from '@/lib/creators-api';
import { PostCard } from '@/components/post-card';
import { SafetyMenu } from '@/components/safety-menu';
import { SubscribeDialog } from '@/components/subscribe-dialog';
import { TipButton } from '@/components/tip-button';
import { SubscriptionCard } from '@/components/subscription-card';
import { VerifiedBadge } from '@/components/verified-badge';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFirstScreen } from '@/lib/use-first-screen';

function NotFound() {
  return (
    <Container maxWidth="sm" sx={{ py: 10, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        Creator Not Found
      </Typography>
      <Typography color="textSecondary" sx={{ my: 2 }}>
        This creator does not exist or is no longer available.
      </Typography>
      <Button component={RouterLink} to="/" startIcon={<ArrowBack />}>
        Back to Home
      </Button>
    </Container>
  );
}

function ProfileSkeleton() {
  return (
    <Box aria-label="Loading creator">
      <Skeleton variant="rectangular" height={220} />
      <Container maxWidth="md">
        <Skeleton variant="circular" width={112} height={112} sx={{ mt: -7 }} />
        <Skeleton width="40%" height={40} />
        <Skeleton width="70%" />
      </Container>
    </Box>
  );
}

/**
 * What the page shows first, asked for before a server renders it for a member
 * (app/member-page.tsx): the creator, then their posts and whether the member subscribes.
 */
export async function prefetchCreatorPage(dispatch: ApiDispatch, id: string, userId: string): Promise<void> {
  const once = { subscribe: false };
  const creator = await dispatch(creatorsApi.endpoints.creator.initiate(id, once));
  if (!creator.data) return;
  await Promise.all([
    dispatch(creatorsApi.endpoints.creatorPosts.initiate(id, once)),
    userId === id ? null : dispatch(creatorsApi.endpoints.subscriptionCheck.initiate(id, once)),
  ]);
}

/** /creator/:id (SPEC §2): cover, avatar, name, bio, posts; Subscribe, Message or owner actions. */
export function CreatorProfilePage() {
  const { id = '' } = useParams();
  const { user } = useCurrentUser();
  const isOwner = user?.id === id;
  const creator = useCreatorQuery(id);
  const posts = useCreatorPostsQuery(id, { skip: !creator.data });
  const check = useSubscriptionCheckQuery(id, { skip: !creator.data || isOwner });
  const { shown: shownPosts, more: morePosts } = useFirstScreen(posts.data ?? []);
  // A promotion's share link (`?promo=<id>`) opens the subscribe dialog on its offer.
  const promotionId = useSearchParams()[0].get('promo');
  const [dialogOpen, setDialogOpen] = useState(promotionId !== null);
  useDocumentTitle(creator.data?.name ?? (creator.isLoading ? 'Creator' : 'Creator Not Found'));

  if (creator.isLoading) return <ProfileSkeleton />;
  if (!creator.data) return <NotFound />;
  const profile = creator.data;
  const subscribed = check.data?.subscribed === true;
  const list = posts.data ?? [];

  return (
    <Box sx={{ pb: 6 }}>
      <CoverBanner url={profile.coverImageUrl} data-testid="creator-cover" sx={{ height: { xs: 160, md: 240 } }} />
      <Container maxWidth="md">
        {/* Only the avatar reaches up into the cover: the cover is positioned, so it would be
            painted over the name beside the avatar. With a flex gap, the Stack leaves the avatar's
            own margin alone. */}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ alignItems: { sm: 'flex-end' } }}>
          <Avatar
            src={profile.profileImageUrl ?? undefined}
            alt="" // the name is beside it
            sx={{
              mt: -7,
              width: 112,
              height: 112,
              border: 4,
              borderColor: 'background.paper',
              bgcolor: 'secondary.main',
              fontSize: 40,
            }}
          >
            {profile.name[0]?.toUpperCase()}
          </Avatar>
          <Box sx={{ flex: 1, pb: 1 }}>
            <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
              {profile.name}
              {profile.verified && <VerifiedBadge size="medium" />}
            </Typography>
            <Typography color="textSecondary">
              {countOf(profile.postCount, 'post')} · {countOf(profile.subscriberCount, 'subscriber')} · from{' '}
              {usd(profile.price)}/month
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ pb: 1 }}>
            {isOwner ? (
              <Button variant="outlined" startIcon={<Edit />} component={RouterLink} to="/dashboard">
                Edit Profile
              </Button>
            ) : subscribed ? (
              <Button
                variant="contained"
                startIcon={<Message />}
                component={RouterLink}
                to={`/messages?user=${profile.id}`}
              >
                Message
              </Button>
            ) : (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<Star />}
                disabled={check.isLoading}
                onClick={() => setDialogOpen(true)}
              >
                Subscribe
              </Button>
            )}
            {!isOwner && <TipButton variant="outlined" creatorId={profile.id} creatorName={profile.name} />}
            {isOwner ? (
              <Button component={RouterLink} to="/profile#blocked-users" startIcon={<Block />}>
                Blocked users
              </Button>
            ) : (
              <SafetyMenu
                label={`More actions for ${profile.name}`}
                report={{ targetType: 'user', targetId: profile.id }}
                user={{ id: profile.id, name: profile.name }}
              />
            )}
          </Stack>
        </Stack>
        <Typography sx={{ mt: 2, whiteSpace: 'pre-wrap' }}>{profile.bio}</Typography>
        {subscribed && check.data?.subscription && (
          <Box sx={{ mt: 2 }}>
            <SubscriptionCard subscription={check.data.subscription} showCreator={false} />
          </Box>
        )}

        <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2, fontWeight: 700 }}>
          Posts ({list.length})
        </Typography>
        {posts.isLoading ? (
          <Stack spacing={2}>
            <Skeleton variant="rounded" height={160} />
            <Skeleton variant="rounded" height={160} />
          </Stack>
        ) : list.length === 0 ? (
          <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
            <Typography color="textSecondary">
              {isOwner ? 'You have not posted anything yet.' : 'No posts yet.'}
            </Typography>
            {isOwner && (
              <Button
                sx={{ mt: 2 }}
                variant="contained"
                startIcon={<Add />}
                component={RouterLink}
                to="/dashboard?newPost=1"
              >
                Create First Post
              </Button>
            )}
          </Paper>
        ) : (
          <Stack spacing={2}>
            {shownPosts.map((post) => (
              <PostCard
                key={post.id}
                post={post}
                showAuthor={false}
                onSubscribe={isOwner ? undefined : () => setDialogOpen(true)}
              />
            ))}
            <div ref={morePosts} />
          </Stack>
        )}
      </Container>
      <SubscribeDialog
        creator={profile}
        open={dialogOpen && !isOwner}
        onClose={() => setDialogOpen(false)}
        promotionId={promotionId}
      />
    </Box>
  );
}
