import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Creator } from '@contracts/creators';
import { VerifiedBadge } from './verified-badge';
import { countOf, usd } from '@/lib/format';

/** What a creator without a cover (or whose cover does not load) shows. */
export const COVER_GRADIENT = 'linear-gradient(135deg, #ec4899 0%, #7c3aed 100%)';

/** The cover image over the gradient: a cover that fails to load is dropped, leaving the gradient. */
export function CoverImage({
  url,
  onError,
  'data-testid': testId,
}: {
  url: string;
  onError: () => void;
  'data-testid'?: string;
}) {
  return (
    <Box
      component="img"
      src={url}
      alt=""
      decoding="async"
      onError={onError}
      data-testid={testId}
      sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
    />
  );
}

/** A creator's cover banner: the image, or the gradient when there is none or it fails to load. */
export function CoverBanner({
  url,
  sx,
  'data-testid': testId,
}: {
  url: string | null;
  sx?: SxProps<Theme>;
  'data-testid'?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Box
      data-testid={testId}
      sx={[
        { position: 'relative', overflow: 'hidden', background: COVER_GRADIENT },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {url && failed !== url && (
        <CoverImage url={url} onError={() => setFailed(url)} data-testid={testId && `${testId}-image`} />
      )}
    </Box>
  );
}

/**
 * A creator as a card: cover, avatar, name, bio, price label; opens the profile. The name is a
 * heading one level below the list's own (h3 under a section's h2, h2 under the page's h1).
 */
export function CreatorCard({ creator, headingLevel = 'h3' }: { creator: Creator; headingLevel?: 'h2' | 'h3' }) {
  return (
    <Card variant="outlined" data-testid="creator-card" sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={`/creator/${creator.id}`} sx={{ height: '100%' }}>
        <CoverBanner url={creator.coverImageUrl} sx={{ height: 96 }} data-testid="creator-card-cover" />
        <CardContent sx={{ pt: 0 }}>
          <Avatar
            src={creator.profileImageUrl ?? undefined}
            alt="" // the name is beside it
            sx={{
              width: 56,
              height: 56,
              mt: -3.5,
              border: 3,
              borderColor: 'background.paper',
              bgcolor: 'secondary.main',
            }}
          >
            {creator.name[0]?.toUpperCase()}
          </Avatar>
          <Typography variant="subtitle1" component={headingLevel} sx={{ fontWeight: 700, mt: 1 }}>
            {creator.name}
            {creator.verified && <VerifiedBadge />}
          </Typography>
          <Typography
            variant="body2"
            color="textSecondary"
            sx={{
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              minHeight: 40,
            }}
          >
            {creator.bio}
          </Typography>
          <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>
            From {usd(creator.price)}/month · {countOf(creator.postCount, 'post')}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

export function CreatorCardSkeleton() {
  return (
    <Card variant="outlined" data-testid="creator-card-skeleton">
      <Skeleton variant="rectangular" height={96} />
      <CardContent>
        <Skeleton variant="circular" width={56} height={56} />
        <Skeleton width="60%" />
        <Skeleton />
        <Skeleton width="40%" />
      </CardContent>
    </Card>
  );
}
