import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { NotificationItem, NotificationsPage } from '@contracts/notifications';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { NotificationBell } from './notification-bell';

jest.setTimeout(30_000);

/** The browser's EventSource, as the bell uses it: one per page, events pushed by the test. */
class FakeEventSource {
  static CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 1;
  closed = false;
  private listeners = new Map<string, Array<(event: { data: string }) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  push(data: object) {
    for (const listener of this.listeners.get('notifications') ?? []) listener({ data: JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}

const item = (n: number, read = false): NotificationItem => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  kind: 'new_message',
  title: 'New message',
  body: `Person ${n} sent you a message`,
  link: `/messages?user=person-${n}`,
  read,
  createdAt: new Date(Date.now() - n * 60_000).toISOString(),
});

/** A server holding a list of notifications: pages of two, read marks. */
function fakeServer(initial: NotificationItem[]) {
  const state = { items: initial };
  const calls = installFakeFetch((call: FakeCall) => {
    const url = new URL(call.url, 'http://localhost');
    if (url.pathname === '/api/notifications/read') {
      const ids = (call.body as { ids?: string[] }).ids;
      state.items = state.items.map((one) => (!ids || ids.includes(one.id) ? { ...one, read: true } : one));
      return { status: 200, body: { unreadCount: state.items.filter((one) => !one.read).length } };
    }
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const body: NotificationsPage = {
      items: state.items.slice(start, start + 2),
      unreadCount: state.items.filter((one) => !one.read).length,
      nextCursor: start + 2 < state.items.length ? String(start + 2) : null,
    };
    return { status: 200, body };
  });
  return { state, calls };
}

// `hidden`: the open popover hides the rest of the page from the accessibility tree.
const bell = () => screen.getByRole('button', { name: /^Notifications/, hidden: true });

/** The count as the bell shows it, '' when the badge is hidden (it keeps its last number while it fades out). */
function badge(): string {
  const shown = screen.getByTestId('notification-count').querySelector('.MuiBadge-badge:not(.MuiBadge-invisible)');
  const count = shown?.textContent ?? '';
  expect(bell().getAttribute('aria-label')).toBe(count ? `Notifications, ${count} unread` : 'Notifications');
  return count;
}

beforeEach(() => {
  FakeEventSource.opened = [];
  Object.assign(globalThis, { EventSource: FakeEventSource });
});
afterEach(cleanup);

it('shows the unread count and opens a notification: marked read, its link followed', async () => {
  const { calls } = fakeServer([item(1), item(2, true)]);
  renderWithApp(<NotificationBell />);
  await waitFor(() => expect(badge()).toBe('1'));
  fireEvent.click(bell());
  const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
  const rows = within(dialog).getAllByTestId('notification');
  expect(rows.map((row) => [row.textContent?.includes('Person 1'), row.dataset.read])).toEqual([
    [true, 'false'],
    [false, 'true'],
  ]);
  fireEvent.click(rows[0]);
  await waitFor(() => expect(badge()).toBe(''));
  expect(calls.filter((call) => call.method === 'POST').map((call) => [call.url, call.body])).toEqual([
    ['/api/notifications/read', { ids: [item(1).id] }],
  ]);
  expect(screen.getByTestId('location').textContent).toBe('/messages');
});

it('marks all as read', async () => {
  const { calls } = fakeServer([item(1), item(2)]);
  renderWithApp(<NotificationBell />);
  await waitFor(() => expect(badge()).toBe('2'));
  fireEvent.click(bell());
  fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
  await waitFor(() => expect(badge()).toBe(''));
  expect(calls.find((call) => call.method === 'POST')?.body).toEqual({});
  expect(screen.getByRole('button', { name: 'Mark all as read' })).toHaveProperty('disabled', true);
});

it('goes up live when the stream pushes a new notification, without a reload', async () => {
  const { state } = fakeServer([item(2)]);
  renderWithApp(<NotificationBell />);
  await waitFor(() => expect(badge()).toBe('1'));
  const [stream] = FakeEventSource.opened;
  expect(stream.url).toBe('/api/notifications/stream');
  state.items = [item(1), ...state.items];
  act(() => stream.push({ unreadCount: 2, items: [item(1)] }));
  await waitFor(() => expect(badge()).toBe('2'));
  cleanup();
  expect(stream.closed).toBe(true);
});

it('pages with Load more, and says when there is nothing', async () => {
  fakeServer([item(1), item(2), item(3)]);
  renderWithApp(<NotificationBell />);
  fireEvent.click(bell());
  const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
  await waitFor(() => expect(within(dialog).getAllByTestId('notification')).toHaveLength(2));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Load more' }));
  await waitFor(() => expect(within(dialog).getAllByTestId('notification')).toHaveLength(3));
  expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull();
  cleanup();
  fakeServer([]);
  renderWithApp(<NotificationBell />);
  fireEvent.click(bell());
  expect(await screen.findByText('No notifications yet')).toBeTruthy();
});
