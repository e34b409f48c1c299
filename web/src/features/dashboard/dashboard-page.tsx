import AccountCircle from '@mui/icons-material/AccountCircle';
import Add from '@mui/icons-material/Add';
import AttachMoney from '@mui/icons-material/AttachMoney';
import BarChart from '@mui/icons-material/BarChart';
import Article from '@mui/icons-material/Article';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Group from '@mui/icons-material/Group';
import People from '@mui/icons-material/People';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import TrendingUp from '@mui/icons-material/TrendingUp';
import Wallpaper from '@mui/icons-material/Wallpaper';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ENGAGEMENT_RATE_DEFINITION } from '@contracts/creators';
import type { CurrentUser } from '@contracts/accounts';
import { useCurrentUser } from '@/lib/current-user';
import { PageSpinner } from '@/components/page-spinner';
import { ProfileImageButton } from '@/components/profile-image-dialog';
import { usd } from '@/lib/format';
import { useCreatorStatsQuery } from '@/lib/creators-api';
import { CreatorJourney } from './creator-journey';
import { useCreatorAnalyticsQuery } from './insights-api';
import { IdentityVerificationBanner } from '@/components/identity-verification-banner';
import { PostComposerDialog } from '@/components/post-composer-dialog';
import { ScheduledPostsPanel } from './scheduled-posts-panel';
import { TierManager } from './tier-manager';
import { PromotionsPanel } from './promotions-panel';
import { statTrends, type Trend } from './trends';
import { useDocumentTitle } from '@/lib/use-document-title';

const TREND_COLORS: Record<Trend['tone'], string> = {
  up: 'success.main',
  down: 'error.main',
  flat: 'text.secondary',
};

function StatCard({
  label,
  value,
  trend,
  icon,
  note,
  loading,
}: {
  label: string;
  value: string;
  /** Undefined while it loads; null when it could not be loaded. */
  trend: Trend | null | undefined;
  icon: ReactNode;
  note?: string;
  loading: boolean;
}) {
  return (
    <Card variant="outlined" data-testid={`stat-${label}`} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="body2" color="textSecondary">
            {label}
          </Typography>
          {icon}
        </Stack>
        <Typography variant="h4" sx={{ fontWeight: 800, my: 1 }}>
          {loading ? <Skeleton width={80} /> : value}
        </Typography>
        {/* Trends are data now (issue 19 overrides SPEC §2): the last 30 days against the 30 before.
            Two lines are kept for them where the cards sit side by side, so the page below does not
            move when they arrive (a tap aimed at Quick Actions would land beside it). */}
        {trend !== null && (
          <Typography
            variant="caption"
            sx={{ display: 'block', minHeight: { sm: '3.32em' }, color: TREND_COLORS[trend?.tone ?? 'flat'] }}
            data-testid="trend"
          >
            {trend ? trend.text : <Skeleton width={120} />}
          </Typography>
        )}
        {note && (
          <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.5 }}>
            {note}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function CreatorDashboard({ user }: { user: CurrentUser }) {
  const { data: stats, isLoading } = useCreatorStatsQuery(user.id);
  const analytics = useCreatorAnalyticsQuery({ creatorId: user.id, days: 30 });
  const trends = analytics.data ? statTrends(analytics.data) : analytics.isError ? null : undefined;
  const [params, setParams] = useSearchParams();
  const [newPostOpen, setNewPostOpen] = useState(params.get('newPost') === '1');
  const closeNewPost = () => {
    setNewPostOpen(false);
    if (params.has('newPost')) setParams({}, { replace: true });
  };
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Paper
        sx={{ p: 3, mb: 3, color: 'common.white', background: 'linear-gradient(135deg, #ec4899 0%, #7c3aed 100%)' }}
      >
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          Welcome back, {name}!
        </Typography>
        <Typography>Here is how your creator page is doing.</Typography>
      </Paper>
      <IdentityVerificationBanner />

      <Grid container spacing={2} sx={{ mb: 3 }}>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            label="Total Earnings"
            value={usd(stats?.totalEarnings ?? 0)}
            trend={trends && trends.earnings}
            icon={<AttachMoney color="action" />}
            note="Your 90% share"
            loading={isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            label="Subscribers"
            value={String(stats?.subscriberCount ?? 0)}
            trend={trends && trends.subscribers}
            icon={<People color="action" />}
            loading={isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            label="Posts"
            value={String(stats?.postCount ?? 0)}
            trend={trends && trends.posts}
            icon={<Article color="action" />}
            loading={isLoading}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <StatCard
            label="Engagement"
            value={`${stats?.engagementRate ?? 0}%`}
            trend={trends && trends.engagement}
            icon={<TrendingUp color="action" />}
            note={ENGAGEMENT_RATE_DEFINITION}
            loading={isLoading}
          />
        </Grid>
      </Grid>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
              <Typography variant="h6" sx={{ mb: 1 }}>
                Quick Actions
              </Typography>
              <Stack spacing={1} sx={{ '& .MuiButton-root': { minHeight: 44 } }}>
                <Button variant="contained" startIcon={<Add />} onClick={() => setNewPostOpen(true)}>
                  Create New Post
                </Button>
                <Button variant="outlined" startIcon={<Group />} component={RouterLink} to="/dashboard/subscribers">
                  Manage Subscribers
                </Button>
                <Button variant="outlined" startIcon={<BarChart />} component={RouterLink} to="/dashboard/analytics">
                  View Analytics
                </Button>
                <Button
                  variant="outlined"
                  startIcon={<ForumOutlined />}
                  component={RouterLink}
                  to="/dashboard/mass-messages"
                >
                  Mass Messages
                </Button>
                <Button variant="outlined" startIcon={<PhotoLibraryOutlined />} component={RouterLink} to="/vault">
                  Media Vault
                </Button>
                <ProfileImageButton
                  slot="avatar"
                  label="Change Profile Photo"
                  variant="outlined"
                  startIcon={<AccountCircle />}
                />
                <ProfileImageButton
                  slot="cover"
                  label="Change Cover Image"
                  variant="outlined"
                  startIcon={<Wallpaper />}
                />
              </Stack>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
              <Typography variant="h6">Recent Activity</Typography>
              <Box sx={{ py: 3, textAlign: 'center' }}>
                <Typography color="textSecondary">No recent activity</Typography>
              </Box>
            </CardContent>
          </Card>
          <ScheduledPostsPanel />
          <TierManager creatorId={user.id} />
          <PromotionsPanel creatorId={user.id} />
        </Grid>
      </Grid>
      <PostComposerDialog open={newPostOpen} onClose={closeNewPost} initialMediaIds={params.getAll('media')} />
    </Container>
  );
}

/** /dashboard (SPEC §2): the creator journey for members, the creator dashboard for creators. */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  return user.isCreator ? <CreatorDashboard user={user} /> : <CreatorJourney />;
}
