import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import Favorite from '@mui/icons-material/Favorite';
import FavoriteBorder from '@mui/icons-material/FavoriteBorder';
import Lock from '@mui/icons-material/Lock';
import Public from '@mui/icons-material/Public';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Post } from '@contracts/posts';
import { toast } from './toast';
import { isUnauthorized } from '@/lib/api';
import { useLikePostMutation } from '@/lib/creators-api';
import { MediaGallery } from './media-gallery';
import { PostComments } from './post-comments';
import { PostOwnerMenu } from './post-owner-menu';
import { SafetyMenu } from './safety-menu';
import { TipButton } from './tip-button';
import { VideoPlayer } from './video-player';
import { useCurrentUser } from '@/lib/current-user';
import { refusalText } from '@/lib/safety-api';
import { formatDate } from '@/lib/format';

/** The media of an unlocked post: video or image by its type. */
function Media({ post }: { post: Post }) {
  if (!post.mediaUrl) return null;
  if (post.mediaType === 'video')
    return (
      <Box sx={{ aspectRatio: '16 / 9', borderRadius: 1, overflow: 'hidden', mt: 1.5 }}>
        <VideoPlayer src={post.mediaUrl} label={post.title} />
      </Box>
    );
  return (
    <Box
      component="img"
      src={post.mediaUrl}
      alt={post.title}
      sx={{ width: '100%', maxHeight: 480, objectFit: 'cover', borderRadius: 1, mt: 1.5 }}
    />
  );
}

/**
 * The locked overlay (SPEC §4): the server sent neither content nor media, so a blurred
 * placeholder stands in for them, with a Subscribe prompt.
 */
function LockedOverlay({ post, onSubscribe }: { post: Post; onSubscribe?: () => void }) {
  const prompt = (
    <Stack spacing={1} sx={{ alignItems: 'center' }}>
      <Lock fontSize="large" />
      <Typography sx={{ fontWeight: 700 }}>This post is for subscribers only</Typography>
      <Typography variant="body2">
        {post.hasMedia ? 'Subscribe to see this post and its media.' : 'Subscribe to read this post.'}
      </Typography>
      {onSubscribe && (
        <Button variant="contained" color="secondary" onClick={onSubscribe}>
          Subscribe to unlock
        </Button>
      )}
    </Stack>
  );
  // Uploaded media: the server's blurred previews stand behind the prompt.
  if (post.media.length > 0)
    return (
      <Box data-testid="locked-overlay">
        <MediaGallery media={post.media} alt={post.title} lockedOverlay={prompt} />
      </Box>
    );
  return (
    <Box
      data-testid="locked-overlay"
      sx={{ position: 'relative', mt: 1.5, borderRadius: 1, overflow: 'hidden', minHeight: 180 }}
    >
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          inset: 0,
          filter: 'blur(14px)',
          background: 'linear-gradient(135deg, rgba(236,72,153,0.55), rgba(124,58,237,0.55))',
          transform: 'scale(1.1)',
        }}
      />
      <Stack
        sx={{
          position: 'relative',
          alignItems: 'center',
          justifyContent: 'center',
          minHeight: 180,
          p: 3,
          color: 'common.white',
          textAlign: 'center',
        }}
      >
        {prompt}
      </Stack>
    </Box>
  );
}

/**
 * A post off screen is neither laid out nor painted until it nears the viewport: a phone's first
 * layout of a feed was among the longest tasks of its load. Until then it takes a height guessed
 * from what it shows, then the height it last had, so the page's length barely moves as the
 * member scrolls.
 */
const renderedNearViewport = (post: Post) =>
  ({
    contentVisibility: 'auto',
    containIntrinsicSize: `auto ${post.hasMedia ? 560 : 240}px`,
  }) as const;

interface PostCardProps {
  post: Post;
  onSubscribe?: () => void;
  showAuthor?: boolean;
}

/**
 * Each post is a Suspense boundary of its own: a page rendered on the server is adopted post by
 * post (React hydrates each boundary in a commit of its own, the one tapped first), not in one
 * commit for the whole feed, a long task on a phone.
 */
export function PostCard(props: PostCardProps) {
  return (
    <Suspense fallback={null}>
      <PostCardContent {...props} />
    </Suspense>
  );
}

function PostCardContent({ post, onSubscribe, showAuthor = true }: PostCardProps) {
  const [like, { isLoading }] = useLikePostMutation();
  const [liked, setLiked] = useState({ liked: post.liked, count: post.likeCount });
  const [showComments, setShowComments] = useState(false);
  const { user } = useCurrentUser();

  const toggleLike = async () => {
    try {
      const result = await like(post.id).unwrap();
      setLiked({ liked: result.liked, count: result.count });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: refusalText(error) ?? 'Failed to like post.', variant: 'destructive' });
    }
  };

  return (
    <Card variant="outlined" data-testid="post-card" data-post-id={post.id} sx={renderedNearViewport(post)}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          {showAuthor && (
            <Avatar
              src={post.creator.profileImageUrl ?? undefined}
              alt=""
              component={RouterLink}
              to={`/creator/${post.creatorId}`}
              aria-label={post.creator.name}
              sx={{ width: 36, height: 36 }}
            >
              {post.creator.name[0]?.toUpperCase()}
            </Avatar>
          )}
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {showAuthor && (
              <Typography
                component={RouterLink}
                to={`/creator/${post.creatorId}`}
                variant="body2"
                sx={{ fontWeight: 600, color: 'inherit', textDecoration: 'none' }}
              >
                {post.creator.name}
              </Typography>
            )}
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
              {formatDate(post.createdAt)}
            </Typography>
          </Box>
          {post.isPublic ? (
            <Chip size="small" icon={<Public />} label="Public" />
          ) : (
            <Chip size="small" icon={<Lock />} label="Subscribers" color="secondary" variant="outlined" />
          )}
          {user && user.id === post.creatorId && <PostOwnerMenu post={post} />}
          {user && user.id !== post.creatorId && (
            <SafetyMenu
              label={`More actions for ${post.title}`}
              report={{ targetType: 'post', targetId: post.id }}
              reportLabel="Report post"
            />
          )}
        </Stack>
        <Typography variant="h6" component="h3">
          {post.title}
        </Typography>
        {post.locked ? (
          <LockedOverlay post={post} onSubscribe={onSubscribe} />
        ) : (
          <>
            <Typography data-testid="post-content" sx={{ whiteSpace: 'pre-wrap', mt: 0.5 }}>
              {post.content}
            </Typography>
            <Media post={post} />
            <MediaGallery media={post.media} alt={post.title} />
          </>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
          <Button
            size="small"
            // The count shown is in the name (WCAG 2.5.3, label in name): "Like, 2 likes".
            aria-label={`${liked.liked ? 'Unlike' : 'Like'}, ${liked.count} ${liked.count === 1 ? 'like' : 'likes'}`}
            aria-pressed={liked.liked}
            disabled={isLoading || post.locked}
            onClick={toggleLike}
            startIcon={liked.liked ? <Favorite color="error" /> : <FavoriteBorder />}
          >
            <span data-testid="like-count">{liked.count}</span>
          </Button>
          <Button
            size="small"
            disabled={post.locked}
            onClick={() => setShowComments((open) => !open)}
            startIcon={<ChatBubbleOutline />}
          >
            {post.commentCount} {post.commentCount === 1 ? 'comment' : 'comments'}
          </Button>
          {user && user.id !== post.creatorId && (
            <TipButton creatorId={post.creatorId} creatorName={post.creator.name} postId={post.id} />
          )}
        </Stack>
        {showComments && !post.locked && <PostComments postId={post.id} creatorId={post.creatorId} />}
      </CardContent>
    </Card>
  );
}
