import Box from '@mui/material/Box';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import type { CurrentUser } from '@contracts/accounts';
import { ErrorBoundary } from '@/components/error-boundary';
import { PageSpinner } from '@/components/page-spinner';
import { useCurrentUser, type AccessState } from '@/lib/current-user';
import { loadChunk } from '@/lib/load-chunk';
import { logger } from '@/lib/logger';

/** `element` for a lazily loaded page exported by name from a feature module. */
export function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
  props: Record<string, unknown> = {},
): ReactNode {
  const Page = lazy(async () => ({ default: (await loadChunk(load))[name] as ComponentType<Record<string, unknown>> }));
  return <Page {...props} />;
}

/**
 * The top bar is only for signed-in users: its chunk (menus, the search field, their icons) stays
 * out of a visitor's first load. Until it arrives, an empty bar of its height keeps the page still.
 */
const LazyTopNav = lazy(async () => ({ default: (await loadChunk(() => import('@/components/top-nav'))).TopNav }));
const topBarPlaceholder = <Box sx={{ height: { xs: 57, sm: 65 }, borderBottom: 1, borderColor: 'divider' }} />;

type TopBar = ComponentType<{ user: CurrentUser }>;

function TopNav({ user }: { user: CurrentUser }) {
  return (
    <Suspense fallback={topBarPlaceholder}>
      <LazyTopNav user={user} />
    </Suspense>
  );
}

/** Suspense for lazy pages, inside an error boundary that resets on navigation. */
function PageFrame() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      onError={(error) => logger.error(error.message, { stack: error.stack, path: pathname })}
    >
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

export interface MemberRoute {
  path: string;
  element: ReactNode;
  /** Also open to signed-in users WITHOUT an active subscription (SPEC §2: only /wallet). */
  withoutSubscription?: boolean;
}

/**
 * EXTENSION POINT: the pages of signed-in members (SPEC §2 "Logged in with an active
 * subscription"). Features append one line each, e.g.
 *   { path: '/chat', element: lazyPage(() => import('@/features/chat/chat-page'), 'ChatPage') },
 * Home belongs here too, as two entries: '/' and '/home'. '/subscribe', the policy pages,
 * '/landing', '/reset-password' and unknown paths are handled below; do not list them.
 */
export const memberRoutes: MemberRoute[] = [
  {
    path: '/wallet',
    element: lazyPage(() => import('@/features/crypto/wallet-page'), 'WalletPage'),
    withoutSubscription: true,
  },
  // A lapsed member still needs their receipts.
  {
    path: '/billing',
    element: lazyPage(() => import('@/features/billing/billing-page'), 'BillingPage'),
    withoutSubscription: true,
  },
  {
    path: '/billing/receipts/:id',
    element: lazyPage(() => import('@/features/billing/receipt-page'), 'ReceiptPage'),
    withoutSubscription: true,
  },
  // A lapsed member still manages (and may cancel or refund) what they pay creators.
  {
    path: '/subscriptions',
    element: lazyPage(() => import('@/features/subscriptions/subscriptions-page'), 'SubscriptionsPage'),
    withoutSubscription: true,
  },
  // Two-factor authentication: for everyone signed in, members and staff alike.
  {
    path: '/security',
    element: lazyPage(() => import('@/features/security/security-page'), 'SecurityPage'),
    withoutSubscription: true,
  },
  // Download your data or delete your account: for everyone signed in, a lapsed member too.
  {
    path: '/account',
    element: lazyPage(() => import('@/features/account/account-page'), 'AccountPage'),
    withoutSubscription: true,
  },
  {
    path: '/verify-age',
    element: lazyPage(() => import('@/features/membership/verify-age-page'), 'VerifyAgePage'),
    withoutSubscription: true,
  },
  { path: '/', element: lazyPage(() => import('@/features/home/home-page'), 'HomePage') },
  { path: '/home', element: lazyPage(() => import('@/features/home/home-page'), 'HomePage') },
  {
    path: '/creator/:id',
    element: lazyPage(() => import('@/features/creators/creator-profile-page'), 'CreatorProfilePage'),
  },
  { path: '/dashboard', element: lazyPage(() => import('@/features/dashboard/dashboard-page'), 'DashboardPage') },
  { path: '/profile', element: lazyPage(() => import('@/features/profile/profile-page'), 'ProfilePage') },
  {
    path: '/dashboard/subscribers',
    element: lazyPage(() => import('@/features/dashboard/subscribers-page'), 'SubscribersPage'),
  },
  {
    path: '/dashboard/verification',
    element: lazyPage(() => import('@/features/verification/verification-page'), 'VerificationPage'),
  },
  {
    path: '/dashboard/analytics',
    element: lazyPage(() => import('@/features/dashboard/analytics-page'), 'AnalyticsPage'),
  },
  {
    path: '/dashboard/mass-messages',
    element: lazyPage(() => import('@/features/dashboard/mass-messages-page'), 'MassMessagesPage'),
  },
  { path: '/messages', element: lazyPage(() => import('@/features/messaging/messages-page'), 'MessagesPage') },
  { path: '/vault', element: lazyPage(() => import('@/features/media/vault-page'), 'VaultPage') },
  { path: '/search', element: lazyPage(() => import('@/features/search/search-page'), 'SearchPage') },
  { path: '/payouts', element: lazyPage(() => import('@/features/payouts/payouts-page'), 'PayoutsPage') },
  // Finance staff may have no site membership: the console checks the role itself, the API enforces it.
  {
    path: '/admin/*',
    element: lazyPage(() => import('@/features/admin/admin-page'), 'AdminPage'),
    withoutSubscription: true,
  },
  { path: '/chat', element: lazyPage(() => import('@/features/chat/chat-page'), 'ChatPage') },
  {
    path: '/profile-setup',
    element: lazyPage(() => import('@/features/chat-profile/profile-setup-page'), 'ProfileSetupPage'),
  },
  {
    path: '/system',
    element: lazyPage(() => import('@/features/system/system-page'), 'SystemPage'),
    withoutSubscription: true,
  },
];

/** Pages the access rules place; replaced by stand-ins in the router's tests. */
export interface ShellPages {
  landing: ReactNode;
  login: ReactNode;
  register: ReactNode;
  forgotPassword: ReactNode;
  resetPassword: ReactNode;
  subscribe: ReactNode;
  notFound: ReactNode;
  communityGuidelines: ReactNode;
  copyrightPolicy: ReactNode;
  privacyPolicy: ReactNode;
  termsOfService: ReactNode;
}

const legal = (document: string) => lazyPage(() => import('@/features/legal/legal-page'), 'LegalPage', { document });

export const shellPages: ShellPages = {
  landing: lazyPage(() => import('@/features/landing/landing-page'), 'LandingPage'),
  login: lazyPage(() => import('@/features/accounts/login-page'), 'LoginPage'),
  register: lazyPage(() => import('@/features/accounts/register-page'), 'RegisterPage'),
  forgotPassword: lazyPage(() => import('@/features/accounts/forgot-password-page'), 'ForgotPasswordPage'),
  resetPassword: lazyPage(() => import('@/features/accounts/reset-password-page'), 'ResetPasswordPage'),
  subscribe: lazyPage(() => import('@/features/membership/subscribe-page'), 'SubscribePage'),
  notFound: lazyPage(() => import('@/components/not-found'), 'NotFoundPage'),
  communityGuidelines: legal('community-guidelines'),
  copyrightPolicy: legal('copyright-policy'),
  privacyPolicy: legal('privacy-policy'),
  termsOfService: legal('terms-of-service'),
};

function PublicLayout() {
  return <PageFrame />;
}

function MemberLayout({ user, topBar: Bar }: { user: CurrentUser; topBar: TopBar }) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Bar user={user} />
      <PageFrame />
    </Box>
  );
}

function policyRoutes(pages: ShellPages) {
  return [
    <Route key="cg" path="/community-guidelines" element={pages.communityGuidelines} />,
    <Route key="cp" path="/copyright-policy" element={pages.copyrightPolicy} />,
    <Route key="pp" path="/privacy-policy" element={pages.privacyPolicy} />,
    <Route key="tos" path="/terms-of-service" element={pages.termsOfService} />,
  ];
}

export interface AccessRoutesProps {
  state: AccessState;
  user: CurrentUser | null;
  pages?: ShellPages;
  routes?: MemberRoute[];
  /** The signed-in top bar; tests pass the real one, loaded up front. */
  topBar?: TopBar;
}

/** SPEC §2 "Access by state", one route table per state. */
export function AccessRoutes({
  state,
  user,
  pages = shellPages,
  routes = memberRoutes,
  topBar = TopNav,
}: AccessRoutesProps) {
  if (state === 'loading' || state === 'visitor' || !user) {
    // Still loading counts as signed out for the public pages; pages that would send a visitor
    // to /login wait for the answer so a signed-in reload is not bounced to /login.
    const toLogin = state === 'loading' ? <PageSpinner /> : <Navigate to="/login" replace />;
    return (
      <Routes>
        <Route element={<PublicLayout />}>
          <Route path="/" element={pages.landing} />
          <Route path="/landing" element={pages.landing} />
          <Route path="/login" element={pages.login} />
          <Route path="/register" element={pages.register} />
          <Route path="/forgot-password" element={pages.forgotPassword} />
          <Route path="/reset-password" element={pages.resetPassword} />
          {policyRoutes(pages)}
          <Route path="/subscribe" element={toLogin} />
          <Route path="/home" element={toLogin} />
          <Route path="/profile-setup" element={toLogin} />
          <Route path="*" element={state === 'loading' ? <PageSpinner /> : pages.landing} />
        </Route>
      </Routes>
    );
  }

  if (state === 'unsubscribed') {
    return (
      <Routes>
        <Route element={<MemberLayout user={user} topBar={topBar} />}>
          {routes
            .filter((route) => route.withoutSubscription)
            .map((route) => (
              <Route key={route.path} path={route.path} element={route.element} />
            ))}
          {policyRoutes(pages)}
          <Route path="/reset-password" element={pages.resetPassword} />
          <Route path="/landing" element={<Navigate to="/subscribe" replace />} />
          {/* /subscribe, /, /home and every other path */}
          <Route path="*" element={pages.subscribe} />
        </Route>
      </Routes>
    );
  }

  return (
    <Routes>
      <Route element={<MemberLayout user={user} topBar={topBar} />}>
        <Route path="/subscribe" element={pages.subscribe} />
        {routes.map((route) => (
          <Route key={route.path} path={route.path} element={route.element} />
        ))}
        {policyRoutes(pages)}
        <Route path="/reset-password" element={pages.resetPassword} />
        <Route path="/landing" element={<Navigate to="/home" replace />} />
        <Route path="*" element={pages.notFound} />
      </Route>
    </Routes>
  );
}

/** The app's routes for the current user's state. */
export function AppRoutes() {
  const { user, state } = useCurrentUser();
  return <AccessRoutes state={state} user={user} />;
}
