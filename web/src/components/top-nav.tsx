import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Logout from '@mui/icons-material/Logout';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import MailOutline from '@mui/icons-material/MailOutlineOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import PersonOutline from '@mui/icons-material/PersonOutlineOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import StarBorderOutlined from '@mui/icons-material/StarBorderOutlined';
import Search from '@mui/icons-material/Search';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { CurrentUser } from '@contracts/accounts';
import { CreatorSearch } from './creator-search';
import { Logo } from './logo';
import { NotificationBell } from './notification-bell';
import { ThemeToggle } from './theme-toggle';

export interface UserMenuItem {
  label: string;
  icon: ReactNode;
  to: (user: CurrentUser) => string;
  /** Omitted: shown to every signed-in user. */
  visible?: (user: CurrentUser) => boolean;
}

/**
 * The user menu (SPEC §2 "Top navigation"). Features append entries here (e.g. Admin for
 * role admin); Logout always comes last and is not part of this list.
 */
export const userMenuItems: UserMenuItem[] = [
  {
    label: 'Profile',
    icon: <PersonOutline fontSize="small" />,
    // Creators have their public page; members and admins their account page.
    to: (user) => (user.isCreator ? `/creator/${user.id}` : '/profile'),
  },
  { label: 'Crypto Wallet', icon: <AccountBalanceWalletOutlined fontSize="small" />, to: () => '/wallet' },
  { label: 'My subscriptions', icon: <StarBorderOutlined fontSize="small" />, to: () => '/subscriptions' },
  { label: 'Billing', icon: <ReceiptLongOutlined fontSize="small" />, to: () => '/billing' },
  { label: 'Security', icon: <SecurityOutlined fontSize="small" />, to: () => '/security' },
  { label: 'Account', icon: <ManageAccountsOutlined fontSize="small" />, to: () => '/account' },
  {
    label: 'Dashboard',
    icon: <DashboardOutlined fontSize="small" />,
    to: () => '/dashboard',
    visible: (user) => user.isCreator,
  },
  {
    label: 'Media Vault',
    icon: <PhotoLibraryOutlined fontSize="small" />,
    to: () => '/vault',
    visible: (user) => user.isCreator,
  },
  {
    label: 'Payouts',
    icon: <PaymentsOutlined fontSize="small" />,
    to: () => '/payouts',
    visible: (user) => user.isCreator,
  },
  {
    label: 'Admin',
    icon: <AdminPanelSettingsOutlined fontSize="small" />,
    to: () => '/admin/payouts',
    visible: (user) => user.role === 'admin',
  },
  {
    label: 'System',
    icon: <AdminPanelSettingsOutlined fontSize="small" />,
    to: () => '/system',
    visible: (user) => user.role === 'admin',
  },
];

function initials(user: CurrentUser): string {
  const letters = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`;
  return (letters || user.email[0] || '?').toUpperCase();
}

/** Navigation for signed-in users only. */
export function TopNav({ user }: { user: CurrentUser }) {
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [searchOpen, setSearchOpen] = useState(false);
  const close = () => setAnchor(null);
  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      {/* Phones: the word mark and the search box give way to icons, so every control fits at 360 px. */}
      <Toolbar
        sx={{
          gap: { xs: 0, sm: 2 },
          px: { xs: 1, sm: 2 },
          '& .MuiIconButton-root': { width: 44, height: 44 },
        }}
      >
        <Box
          component={RouterLink}
          to="/"
          aria-label="Lively home"
          sx={{
            color: 'inherit',
            textDecoration: 'none',
            minHeight: 44,
            minWidth: 44,
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            '& .MuiTypography-root': { display: { xs: 'none', sm: 'inline' } },
          }}
        >
          <Logo />
        </Box>
        <CreatorSearch sx={{ flex: 1, maxWidth: 420, display: { xs: 'none', sm: 'block' } }} />
        <Box sx={{ flex: 1 }} />
        <Tooltip title="Search">
          <IconButton
            aria-label="Search"
            aria-expanded={searchOpen}
            color="inherit"
            onClick={() => setSearchOpen((open) => !open)}
            sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
          >
            <Search />
          </IconButton>
        </Tooltip>
        <ThemeToggle />
        <NotificationBell />
        <Tooltip title="Messages">
          <IconButton aria-label="Messages" color="inherit" component={RouterLink} to="/messages">
            <MailOutline />
          </IconButton>
        </Tooltip>
        <Tooltip title="Chat">
          <IconButton aria-label="Chat" color="inherit" component={RouterLink} to="/chat">
            <ChatBubbleOutline />
          </IconButton>
        </Tooltip>
        <IconButton aria-label="User menu" onClick={(event) => setAnchor(event.currentTarget)} sx={{ p: 0.5 }}>
          <Avatar
            src={user.profileImageUrl ?? undefined}
            alt="" // the button is named "User menu"
            sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 14, fontWeight: 700 }}
          >
            {/* Drawn, not text (as a photo would be): the button's name is "User menu" (WCAG 2.5.3). */}
            <Box
              component="span"
              aria-hidden
              data-initials={initials(user)}
              sx={{ '&::before': { content: 'attr(data-initials)' } }}
            />
          </Avatar>
        </IconButton>
        <Menu
          anchorEl={anchor}
          open={anchor !== null}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {userMenuItems
            .filter((item) => item.visible?.(user) ?? true)
            .map((item) => (
              <MenuItem
                key={item.label}
                onClick={() => {
                  close();
                  navigate(item.to(user));
                }}
              >
                <ListItemIcon>{item.icon}</ListItemIcon>
                {item.label}
              </MenuItem>
            ))}
          <Divider />
          <MenuItem onClick={() => window.location.assign('/api/auth/logout')}>
            <ListItemIcon>
              <Logout fontSize="small" />
            </ListItemIcon>
            Logout
          </MenuItem>
        </Menu>
      </Toolbar>
      {searchOpen && (
        <Box sx={{ display: { xs: 'block', sm: 'none' }, px: 1, pb: 1 }}>
          <CreatorSearch autoFocus onDone={() => setSearchOpen(false)} sx={{ width: '100%' }} />
        </Box>
      )}
    </AppBar>
  );
}
