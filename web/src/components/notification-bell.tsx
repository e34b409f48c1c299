import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import CurrencyExchange from '@mui/icons-material/CurrencyExchange';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import MailOutline from '@mui/icons-material/MailOutlineOutlined';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import VolunteerActivismOutlined from '@mui/icons-material/VolunteerActivismOutlined';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { NotificationItem, NotificationKind } from '@contracts/notifications';
import { timeAgo } from '@/lib/format';
import type { ApiDispatch } from '@/lib/api';
import {
  notificationsApi,
  useMarkNotificationsReadMutation,
  useNotificationStream,
  useNotificationsInfiniteQuery,
} from '@/lib/notifications-api';

const KIND_ICONS: Record<NotificationKind, ReactNode> = {
  new_subscriber: <PersonAddAlt1Outlined fontSize="small" />,
  new_message: <MailOutline fontSize="small" />,
  message_unlocked: <LockOpenOutlined fontSize="small" />,
  tip_received: <VolunteerActivismOutlined fontSize="small" />,
  payout_status: <PaymentsOutlined fontSize="small" />,
  conversion_completed: <CurrencyExchange fontSize="small" />,
  membership_renewed: <AutorenewOutlined fontSize="small" />,
  membership_renewal_failed: <ErrorOutline fontSize="small" />,
  subscription_renewed: <AutorenewOutlined fontSize="small" />,
  subscription_renewal_failed: <ErrorOutline fontSize="small" />,
  subscription_changed: <PersonAddAlt1Outlined fontSize="small" />,
  subscription_ended: <ErrorOutline fontSize="small" />,
  data_export_ready: <DownloadOutlined fontSize="small" />,
};

function NotificationRow({ item, onOpen }: { item: NotificationItem; onOpen: (item: NotificationItem) => void }) {
  return (
    <ListItemButton
      onClick={() => onOpen(item)}
      alignItems="flex-start"
      data-testid="notification"
      data-read={item.read}
      sx={{ minHeight: 56, gap: 1, bgcolor: item.read ? undefined : 'action.hover' }}
    >
      <ListItemAvatar sx={{ minWidth: 0, mt: 0.5 }}>
        <Avatar sx={{ width: 36, height: 36, bgcolor: item.read ? 'action.selected' : 'primary.main' }}>
          {KIND_ICONS[item.kind] ?? <NotificationsNone fontSize="small" />}
        </Avatar>
      </ListItemAvatar>
      <ListItemText
        sx={{ my: 0, minWidth: 0 }}
        primary={item.title}
        secondary={
          <>
            <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
              {item.body}
            </Box>
            <Box component="span" sx={{ display: 'block', fontSize: 12, mt: 0.25 }}>
              {timeAgo(item.createdAt)}
            </Box>
          </>
        }
        slotProps={{ primary: { sx: { fontWeight: item.read ? 500 : 700 } } }}
      />
      {!item.read && (
        <Box
          aria-label="Unread"
          sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main', flexShrink: 0, mt: 1.5 }}
        />
      )}
    </ListItemButton>
  );
}

/**
 * The bell's first page, asked for before a server renders a member's page (app/member-page.tsx):
 * the page then comes with its unread count, and nothing changes when the app adopts it (a badge
 * appearing then was a re-render, and its styles made on a phone's CPU, right after adoption).
 */
export async function prefetchNotificationBell(dispatch: ApiDispatch): Promise<void> {
  await dispatch(notificationsApi.endpoints.notifications.initiate(undefined, { subscribe: false }));
}

/**
 * The top bar's bell (signed-in users only): the unread count, kept live by the server's
 * notification stream, and the list of notifications. Opening one marks it read and follows
 * its link.
 */
/** The badge's largest number; more shows as "99+". */
const MOST_SHOWN = 99;

export function NotificationBell() {
  const navigate = useNavigate();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const query = useNotificationsInfiniteQuery();
  const [markRead] = useMarkNotificationsReadMutation();
  const unreadCount = query.data?.pages[0]?.unreadCount;
  useNotificationStream(unreadCount);
  const shownCount = unreadCount && (unreadCount > MOST_SHOWN ? `${MOST_SHOWN}+` : String(unreadCount));
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const close = () => setAnchor(null);

  const open = (item: NotificationItem) => {
    if (!item.read) void markRead({ ids: [item.id] });
    close();
    navigate(item.link);
  };

  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          // The badge's number is in the name as shown (WCAG 2.5.3, label in name).
          aria-label={shownCount ? `Notifications, ${shownCount} unread` : 'Notifications'}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
          color="inherit"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge
            badgeContent={unreadCount ?? 0}
            color="error"
            max={MOST_SHOWN}
            data-testid="notification-count"
            // A hidden badge keeps its last number (for its fade): hidden outright, no word is shown
            // that the bell's name lacks.
            sx={{ '& .MuiBadge-invisible': { visibility: 'hidden' } }}
          >
            <NotificationsNone />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        marginThreshold={phone ? 0 : 16}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-label': 'Notifications',
            sx: {
              width: { xs: '100vw', sm: 400 },
              maxWidth: '100vw',
              maxHeight: { xs: 'calc(100dvh - 64px)', sm: 560 },
              display: 'flex',
              flexDirection: 'column',
              borderRadius: { xs: 0, sm: 2 },
            },
          },
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, minHeight: 52 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700, flex: 1 }}>
            Notifications
          </Typography>
          <Button
            size="small"
            onClick={() => void markRead({})}
            disabled={!unreadCount}
            sx={{ minHeight: 44, textTransform: 'none' }}
          >
            Mark all as read
          </Button>
        </Box>
        <Divider />
        <Box sx={{ overflowY: 'auto', flex: 1 }}>
          {query.isLoading && (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
              <CircularProgress size={24} aria-label="Loading notifications" />
            </Box>
          )}
          {query.isError && !query.data && (
            <Box sx={{ textAlign: 'center', py: 3, px: 2 }}>
              <Typography color="text.secondary" sx={{ mb: 1 }}>
                Could not load notifications
              </Typography>
              <Button onClick={() => void query.refetch()} sx={{ minHeight: 44 }}>
                Retry
              </Button>
            </Box>
          )}
          {query.isSuccess && items.length === 0 && (
            <Box sx={{ textAlign: 'center', py: 4, px: 2 }}>
              <NotificationsNone color="disabled" sx={{ fontSize: 40 }} />
              <Typography color="text.secondary">No notifications yet</Typography>
            </Box>
          )}
          {items.length > 0 && (
            <List disablePadding>
              {items.map((item) => (
                <NotificationRow key={item.id} item={item} onOpen={open} />
              ))}
            </List>
          )}
          {query.hasNextPage && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
              <Button
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
                sx={{ minHeight: 44 }}
              >
                {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </Box>
          )}
        </Box>
      </Popover>
    </>
  );
}
