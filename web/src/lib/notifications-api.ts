import type { NotificationsPage, NotificationsPush, NotificationsReadResult } from '@contracts/notifications';
import { useEffect, useRef } from 'react';
import { useDispatch } from 'react-redux';
import { api, type ApiDispatch } from './api';

/** The top bar's notifications: pages newest first (by cursor), read marks, and the live stream. */
export const notificationsApi = api.enhanceEndpoints({ addTagTypes: ['Notifications'] }).injectEndpoints({
  endpoints: (build) => ({
    notifications: build.infiniteQuery<NotificationsPage, void, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ pageParam }) => ({
        url: pageParam ? `/api/notifications?cursor=${encodeURIComponent(pageParam)}` : '/api/notifications',
      }),
      // A background read: a lapsed session is left to the next thing the user does.
      extraOptions: { on401: 'error' },
      providesTags: ['Notifications'],
    }),
    markNotificationsRead: build.mutation<NotificationsReadResult, { ids?: string[] }>({
      query: (body) => ({ url: '/api/notifications/read', method: 'POST', body }),
      invalidatesTags: ['Notifications'],
    }),
  }),
});

export const { useNotificationsInfiniteQuery, useMarkNotificationsReadMutation } = notificationsApi;

export const NOTIFICATION_STREAM_URL = '/api/notifications/stream';
/** When the browser gives up on the stream (an error answer), a fresh one after this long. */
const REOPEN_MS = 15_000;

/**
 * Keeps the notifications fresh while the page is open: the server pushes an event when
 * something arrives or the unread count changes, and the list is fetched again. EventSource
 * reconnects by itself after a dropped connection; after an error answer it stops, so a new
 * one is opened a little later.
 */
export function useNotificationStream(unreadCount: number | undefined): void {
  const dispatch = useDispatch<ApiDispatch>();
  const known = useRef(unreadCount);
  useEffect(() => {
    known.current = unreadCount;
  }, [unreadCount]);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      source = new EventSource(NOTIFICATION_STREAM_URL, { withCredentials: true });
      source.addEventListener('notifications', (event) => {
        const push = JSON.parse((event as MessageEvent<string>).data) as NotificationsPush;
        // Before the first page arrives there is nothing to refresh: that fetch is fresh already.
        if (known.current === undefined) return;
        if (push.items.length > 0 || push.unreadCount !== known.current)
          dispatch(notificationsApi.util.invalidateTags(['Notifications']));
      });
      source.addEventListener('error', () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        reopen = setTimeout(open, REOPEN_MS);
      });
    };
    open();
    return () => {
      clearTimeout(reopen);
      source?.close();
    };
  }, [dispatch]);
}
