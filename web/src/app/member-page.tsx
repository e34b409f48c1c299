import { AsyncLocalStorage } from 'node:async_hooks';
import { prerender } from 'react-dom/static';
import { matchPath } from 'react-router';
import type { CurrentUser } from '@contracts/accounts';
import type { MemberPageRequest, RenderedMemberPage, RenderedQuery } from '@contracts/member-pages';
import { prefetchNotificationBell } from '@/components/notification-bell';
import { prefetchCreatorPage } from '@/features/creators/creator-profile-page';
import { prefetchHomePage } from '@/features/home/home-page';
import { api, type ApiDispatch } from '@/lib/api';
import { accessStateOf, currentUserApi } from '@/lib/current-user';
import { setReaderTimeZone } from '@/lib/format';
import { App } from './app';
import { hoistStyles, inertControls } from './page-html';
import { createStore } from './store';

type Prefetch = (dispatch: ApiDispatch, params: Record<string, string | undefined>, user: CurrentUser) => Promise<void>;

/** The pages a member most often opens first, rendered on the server with what they show first. */
const MEMBER_PAGES: { path: string; frame: string; prefetch: Prefetch }[] = [
  { path: '/', frame: 'home', prefetch: (dispatch) => prefetchHomePage(dispatch) },
  { path: '/home', frame: 'home', prefetch: (dispatch) => prefetchHomePage(dispatch) },
  {
    path: '/creator/:id',
    frame: 'creator',
    prefetch: (dispatch, { id = '' }, user) => prefetchCreatorPage(dispatch, id, user.id),
  },
];

// Each render writes dates in its own member's zone, though renders interleave while they wait.
const readerZone = new AsyncLocalStorage<string>();
setReaderTimeZone(() => readerZone.getStore());

/**
 * A member's page as HTML with the data it shows, which the browser then adopts
 * (web/src/main.tsx) instead of fetching it and rendering it itself. Null when the server
 * should leave the page to the browser: not one of MEMBER_PAGES, or the member has no
 * site access (the app then sends them where they belong).
 * @public (the server build, web/src/app/server-entry.ts, is loaded by api/http/member-pages.ts)
 */
export async function renderMemberPage(request: MemberPageRequest): Promise<RenderedMemberPage | null> {
  const pathname = new URL(request.url, 'http://page').pathname;
  const page = MEMBER_PAGES.map((each) => ({ ...each, match: matchPath(each.path, pathname) })).find(
    (each) => each.match,
  );
  if (!page?.match) return null;
  const store = createStore({ devChecks: false, server: { origin: request.origin, cookie: request.cookie } });
  try {
    const { data: user } = await store.dispatch(
      currentUserApi.endpoints.currentUser.initiate(undefined, { subscribe: false }),
    );
    if (!user || accessStateOf(user, false) !== 'subscribed') return null;
    // The page's own data, and the top bar's.
    await Promise.all([
      page.prefetch(store.dispatch, page.match.params, user),
      prefetchNotificationBell(store.dispatch),
    ]);
    const failures: unknown[] = [];
    const rendered = await readerZone.run(request.timeZone, async () => {
      const { prelude } = await prerender(<App location={request.url} store={store} />, {
        // Every boundary inline in the markup, none sent apart with a script to move it in.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onError: (error) => void failures.push(error),
      });
      return new Response(prelude).text();
    });
    // A part that failed here would be rendered again by the browser: the page is left to it whole.
    if (failures.length) throw new AggregateError(failures, 'the page failed to render on the server');
    const { markup, style } = hoistStyles(rendered);
    const queries = fulfilledQueries(store.getState().api);
    return { frame: page.frame, markup: inertControls(markup), style, queries };
  } finally {
    // Nothing of this member stays behind: the cache and its removal timers go with the store.
    store.dispatch(api.util.resetApiState());
  }
}

function fulfilledQueries(state: ReturnType<typeof api.reducer>): RenderedQuery[] {
  return Object.values(state.queries).flatMap((entry) =>
    entry?.status === 'fulfilled'
      ? [{ endpointName: entry.endpointName, arg: entry.originalArgs, value: entry.data }]
      : [],
  );
}
