import ArrowBack from '@mui/icons-material/ArrowBack';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import FavoriteBorder from '@mui/icons-material/FavoriteBorder';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { ANALYTICS_DAYS, type AnalyticsDays, type CreatorAnalytics } from '@contracts/creator-insights';
import { PageSpinner } from '@/components/page-spinner';
import { errorMessage } from '@/lib/api';
import { useCurrentUser } from '@/lib/current-user';
import { countOf, usd } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EarningsChart, SubscribersChart } from './analytics-charts';
import { useCreatorAnalyticsQuery } from './insights-api';
import { TipsAndUnlocks } from './tips-unlocks-section';
import { percentTrend, type Trend } from './trends';

const DEFAULT_DAYS: AnalyticsDays = 30;
const TONE_COLORS: Record<Trend['tone'], string> = { up: 'success.main', down: 'error.main', flat: 'text.secondary' };

/** The window from `?days=`: 7, 30 or 90; anything else is the default. */
function daysOf(param: string | null): AnalyticsDays {
  return ANALYTICS_DAYS.find((days) => String(days) === param) ?? DEFAULT_DAYS;
}

function Total({ label, value, trend, testId }: { label: string; value: string; trend: Trend; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Typography variant="body2" color="textSecondary">
          {label}
        </Typography>
        <Typography
          variant="h4"
          sx={{ fontWeight: 800, my: 0.5, fontSize: { xs: '1.5rem', sm: '2.125rem' }, overflowWrap: 'anywhere' }}
          data-testid="value"
        >
          {value}
        </Typography>
        <Typography variant="caption" sx={{ color: TONE_COLORS[trend.tone] }} data-testid="trend">
          {trend.text}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

const invert = (trend: Trend): Trend => ({
  ...trend,
  tone: trend.tone === 'up' ? 'down' : trend.tone === 'down' ? 'up' : 'flat',
});

function Totals({ analytics }: { analytics: CreatorAnalytics }) {
  const { days, current, previous } = analytics;
  const net = current.subscribersGained - current.subscribersLost;
  const previousNet = previous.subscribersGained - previous.subscribersLost;
  const totals = [
    {
      testId: 'total-earnings',
      label: 'Earnings (your 90% share)',
      value: usd(current.earningsCents / 100),
      trend: percentTrend(current.earningsCents, previous.earningsCents, days, { none: 'No earnings yet' }),
    },
    {
      testId: 'total-gained',
      label: 'Subscribers gained',
      value: String(current.subscribersGained),
      trend: percentTrend(current.subscribersGained, previous.subscribersGained, days, { none: 'None yet' }),
    },
    {
      testId: 'total-lost',
      label: 'Subscribers lost',
      value: String(current.subscribersLost),
      // Fewer losses is the good direction.
      trend: invert(percentTrend(current.subscribersLost, previous.subscribersLost, days, { none: 'None lost' })),
    },
    {
      testId: 'total-net',
      label: 'Net change',
      value: signed(net),
      trend: { text: `${signed(previousNet)} in the ${days} days before`, tone: 'flat' as const },
    },
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {totals.map((total) => (
        <Grid key={total.testId} size={{ xs: 6, md: 3 }}>
          <Total {...total} />
        </Grid>
      ))}
    </Grid>
  );
}

function TopPosts({ analytics }: { analytics: CreatorAnalytics }) {
  if (analytics.topPosts.length === 0)
    return <Typography color="textSecondary">No posts yet: likes and comments will show here.</Typography>;
  return (
    <List dense disablePadding aria-label="Top posts">
      {analytics.topPosts.map((post, index) => (
        <ListItem key={post.id} disableGutters divider={index < analytics.topPosts.length - 1}>
          <ListItemText
            primary={post.title}
            slotProps={{ primary: { sx: { fontWeight: 600, overflowWrap: 'anywhere' } } }}
            secondary={
              <Stack component="span" direction="row" spacing={2} sx={{ mt: 0.5 }}>
                <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <FavoriteBorder fontSize="inherit" />
                  <span>{countOf(post.likeCount, 'like')}</span>
                </Stack>
                <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <ChatBubbleOutline fontSize="inherit" />
                  <span>{countOf(post.commentCount, 'comment')}</span>
                </Stack>
              </Stack>
            }
          />
        </ListItem>
      ))}
    </List>
  );
}

function Analytics({ creatorId, days }: { creatorId: string; days: AnalyticsDays }) {
  // currentData: the answer for this window only, never the previous window's while the new one loads.
  const { currentData: data, error } = useCreatorAnalyticsQuery({ creatorId, days });
  if (error) return <Alert severity="error">Could not load your analytics. {errorMessage(error)}</Alert>;
  if (!data) return <Skeleton variant="rectangular" height={420} />;
  return (
    <>
      <Totals analytics={data} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Earnings per day">
            <EarningsChart daily={data.daily} />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="Subscribers gained and lost">
            <SubscribersChart daily={data.daily} />
          </Section>
        </Grid>
        <Grid size={12}>
          <Section title="Tips and message unlocks">
            <TipsAndUnlocks analytics={data} />
          </Section>
        </Grid>
        <Grid size={12}>
          <Section title="Top posts by likes">
            <TopPosts analytics={data} />
          </Section>
        </Grid>
      </Grid>
    </>
  );
}

/** /dashboard/analytics (issue 19): the creator's earnings, subscribers and best posts over 7, 30 or 90 days. */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const days = daysOf(params.get('days'));
  if (!user) return <PageSpinner />;
  if (!user.isCreator) return <Navigate to="/dashboard" replace />;
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBack />} sx={{ mb: 1, minHeight: 44 }}>
        Dashboard
      </Button>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          Analytics
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={days}
          onChange={(_, value: AnalyticsDays | null) => value && setParams({ days: String(value) }, { replace: true })}
          aria-label="Period"
          sx={{ '& .MuiToggleButton-root': { minHeight: 44, px: 2, flex: { xs: 1, sm: 'none' } } }}
        >
          {ANALYTICS_DAYS.map((option) => (
            <ToggleButton key={option} value={option}>
              {option} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        The last {days} days (UTC) against the {days} days before them.
      </Typography>
      <Analytics creatorId={user.id} days={days} />
    </Container>
  );
}
