import ArrowBack from '@mui/icons-material/ArrowBack';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import type { CreatorSubscriber, SubscriberStatus } from '@contracts/creator-insights';
import { PageSpinner } from '@/components/page-spinner';
import { errorMessage } from '@/lib/api';
import { useCurrentUser } from '@/lib/current-user';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCreatorSubscribersInfiniteQuery } from './insights-api';
import { formatDate } from '@/lib/format';

const SEARCH_DELAY_MS = 300;

/** "Renews 20 Apr 2026", "Ends 20 Apr 2026" or "Ended 1 Mar 2026". */
export function periodEnd(subscriber: CreatorSubscriber, now = new Date()): string {
  if (subscriber.renews && subscriber.renewsAt) return `Renews ${formatDate(subscriber.renewsAt)}`;
  if (!subscriber.endsAt) return '';
  return `${new Date(subscriber.endsAt) > now ? 'Ends' : 'Ended'} ${formatDate(subscriber.endsAt)}`;
}

function StatusChip({ status }: { status: SubscriberStatus }) {
  return (
    <Chip
      size="small"
      label={status === 'active' ? 'Active' : 'Ended'}
      color={status === 'active' ? 'success' : 'default'}
      variant={status === 'active' ? 'filled' : 'outlined'}
    />
  );
}

function Member({ subscriber }: { subscriber: CreatorSubscriber }) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Avatar src={subscriber.avatarUrl ?? undefined} alt="">
        {subscriber.name.charAt(0).toUpperCase()}
      </Avatar>
      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{subscriber.name}</Typography>
    </Stack>
  );
}

function MessageButton({ subscriber, fullWidth }: { subscriber: CreatorSubscriber; fullWidth?: boolean }) {
  return (
    <Button
      variant="outlined"
      startIcon={<ChatBubbleOutline />}
      component={RouterLink}
      to={`/messages?user=${encodeURIComponent(subscriber.userId)}`}
      aria-label={`Message ${subscriber.name}`}
      fullWidth={fullWidth}
      sx={{ minHeight: 44 }}
    >
      Message
    </Button>
  );
}

function SubscriberTable({ subscribers }: { subscribers: CreatorSubscriber[] }) {
  return (
    <Paper variant="outlined">
      <Table aria-label="Subscribers">
        <TableHead>
          <TableRow>
            <TableCell>Member</TableCell>
            <TableCell>Tier</TableCell>
            <TableCell>Since</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Paid period</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subscribers.map((subscriber) => (
            <TableRow key={subscriber.userId} data-testid="subscriber">
              <TableCell>
                <Member subscriber={subscriber} />
              </TableCell>
              <TableCell>{subscriber.tierName}</TableCell>
              <TableCell>{formatDate(subscriber.since)}</TableCell>
              <TableCell>
                <StatusChip status={subscriber.status} />
              </TableCell>
              <TableCell>{periodEnd(subscriber)}</TableCell>
              <TableCell align="right">
                <MessageButton subscriber={subscriber} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

function SubscriberCards({ subscribers }: { subscribers: CreatorSubscriber[] }) {
  return (
    <Stack spacing={1.5} component="ul" aria-label="Subscribers" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {subscribers.map((subscriber) => (
        <Card component="li" variant="outlined" key={subscriber.userId} data-testid="subscriber">
          <CardContent>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
              <Member subscriber={subscriber} />
              <StatusChip status={subscriber.status} />
            </Stack>
            <Typography variant="body2" color="textSecondary">
              {subscriber.tierName} · since {formatDate(subscriber.since)}
            </Typography>
            <Typography variant="body2" color="textSecondary" sx={{ mb: 1.5 }}>
              {periodEnd(subscriber)}
            </Typography>
            <MessageButton subscriber={subscriber} fullWidth />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** The search text once typing pauses, so each keystroke does not ask the server. */
function useSettledText(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

function SubscriberList({ creatorId }: { creatorId: string }) {
  const phone = useMediaQuery(useTheme().breakpoints.down('md'), { noSsr: true });
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<SubscriberStatus | 'all'>('all');
  const q = useSettledText(search).trim();
  const { data, error, isLoading, isFetching, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useCreatorSubscribersInfiniteQuery({ creatorId, q: q || undefined, status: status === 'all' ? undefined : status });
  const subscribers = data?.pages.flatMap((page) => page.subscribers) ?? [];
  const filtered = Boolean(q) || status !== 'all';

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField
          label="Search by name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          fullWidth
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search />
                </InputAdornment>
              ),
            },
            htmlInput: { maxLength: 200 },
          }}
        />
        <ToggleButtonGroup
          exclusive
          value={status}
          onChange={(_, value: SubscriberStatus | 'all' | null) => value && setStatus(value)}
          aria-label="Status"
          sx={{ '& .MuiToggleButton-root': { minHeight: 44, px: 2, flex: { xs: 1, sm: 'none' } } }}
        >
          <ToggleButton value="all">All</ToggleButton>
          <ToggleButton value="active">Active</ToggleButton>
          <ToggleButton value="ended">Ended</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {isLoading ? (
        <Skeleton variant="rectangular" height={200} />
      ) : error ? (
        <Alert severity="error">Could not load your subscribers. {errorMessage(error)}</Alert>
      ) : subscribers.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, textAlign: 'center' }}>
          <Typography color="textSecondary">
            {filtered ? 'No subscribers match your search.' : 'No subscribers yet.'}
          </Typography>
        </Paper>
      ) : (
        <Box sx={{ opacity: isFetching && !isFetchingNextPage ? 0.6 : 1 }}>
          {phone ? <SubscriberCards subscribers={subscribers} /> : <SubscriberTable subscribers={subscribers} />}
          {hasNextPage && (
            <Box sx={{ textAlign: 'center', mt: 2 }}>
              <Button onClick={() => fetchNextPage()} disabled={isFetchingNextPage} sx={{ minHeight: 44 }}>
                {isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </Box>
          )}
        </Box>
      )}
    </>
  );
}

/** /dashboard/subscribers (issue 19): the creator's members, searchable by name, with a way to message each. */
export function SubscribersPage() {
  useDocumentTitle('Subscribers');
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  if (!user.isCreator) return <Navigate to="/dashboard" replace />;
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBack />} sx={{ mb: 1, minHeight: 44 }}>
        Dashboard
      </Button>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
        Subscribers
      </Typography>
      <SubscriberList creatorId={user.id} />
    </Container>
  );
}
