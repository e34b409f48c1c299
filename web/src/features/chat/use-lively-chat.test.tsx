import '@/test-support/jsdom-setup';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { getToasts, removeToast } from '@/components/toast';
import { renderWithApp } from '@/test-support/render';
import { useLivelyChat } from './use-lively-chat';

/** A chat socket the test drives: it fires what a browser would. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  closed = false;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send() {}
  close() {
    this.closed = true;
  }
  /** What the browser does to a socket closed while connecting: error, then close. */
  failAfterClose() {
    this.onerror?.();
    this.onclose?.();
  }
}

function ChatProbe() {
  const chat = useLivelyChat('u-1', true);
  return <output data-testid="socket-open">{String(chat.socketOpen)}</output>;
}

const stream = { getTracks: () => [], getVideoTracks: () => [], getAudioTracks: () => [] };

beforeEach(() => {
  FakeSocket.all = [];
  Object.assign(globalThis, { WebSocket: FakeSocket });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: jest.fn().mockResolvedValue(stream) },
  });
});
afterEach(() => {
  cleanup();
  act(() => removeToast());
});

const openToasts = () => getToasts().filter((t) => t.open);

it('a chat socket error shows a Chat Error toast while on the page', async () => {
  renderWithApp(<ChatProbe />, { path: '/chat' });
  await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
  act(() => FakeSocket.all[0]!.onerror?.());
  expect(screen.getByText('Chat Error')).toBeTruthy();
  expect(screen.getByText('Connection error. Please refresh and try again.')).toBeTruthy();
});

it('leaving the page closes the socket and takes its toasts along; late socket events say nothing', async () => {
  const { unmount } = renderWithApp(<ChatProbe />, { path: '/chat' });
  await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
  const socket = FakeSocket.all[0]!;
  act(() => socket.onerror?.());
  expect(openToasts().map((t) => t.title)).toEqual(['Chat Error']);

  unmount();
  expect(socket.closed).toBe(true);
  expect(openToasts()).toEqual([]);
  // The browser reports the closed socket after the page is gone: no new toast, no reconnect.
  act(() => socket.failAfterClose());
  expect(openToasts()).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(FakeSocket.all).toHaveLength(1);
});
