import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Creator } from '@contracts/creators';
import { countOf, usd } from '@/lib/format';

export const coverBackground = (url: string | null) =>
  url
    ? `center / cover no-repeat url("${url.replace(/"/g, '%22')}")`
    : 'linear-gradient(135deg, #ec4899 0%, #7c3aed 100%)';

/** A creator as a card: cover, avatar, name, bio, price label; opens the profile. */
export function CreatorCard({ creator }: { creator: Creator }) {
  return (
    <Card variant="outlined" data-testid="creator-card" sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={`/creator/${creator.id}`} sx={{ height: '100%' }}>
        <Box sx={{ height: 96, background: coverBackground(creator.coverImageUrl) }} />
        <CardContent sx={{ pt: 0 }}>
          <Avatar
            src={creator.profileImageUrl ?? undefined}
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
          <Typography variant="subtitle1" sx={{ fontWeight: 700, mt: 1 }}>
            {creator.name}
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
