import '@/test-support/jsdom-setup';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { getToasts, removeToast } from '@/components/toast';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ACCOUNT_DEACTIVATED_TEXT } from '@contracts/safety';
import { RELAY_ONLY_KEY, useLivelyChat } from './use-lively-chat';

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
  /** The server says something. */
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
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
  return (
    <>
      <output data-testid="socket-open">{String(chat.socketOpen)}</output>
      <output data-testid="deactivated">{String(chat.accountDeactivated)}</output>
    </>
  );
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

it('a suspended or banned account sees why its chat closed, and the page does not reconnect', async () => {
  renderWithApp(<ChatProbe />, { path: '/chat' });
  await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
  const socket = FakeSocket.all[0]!;
  act(() => {
    socket.onopen?.();
    socket.receive({ type: 'error', error: ACCOUNT_DEACTIVATED_TEXT });
    socket.onclose?.();
  });
  expect(screen.getByText(ACCOUNT_DEACTIVATED_TEXT)).toBeTruthy();
  expect(screen.getByTestId('deactivated').textContent).toBe('true');
  await new Promise((resolve) => setTimeout(resolve, 1200));
  expect(FakeSocket.all).toHaveLength(1);
});

describe('ICE servers', () => {
  const TURN = { urls: ['turn:relay.example:3478?transport=udp'], username: '1800000000:u-1', credential: 'c2lnbmVk' };
  let configs: RTCConfiguration[];
  beforeEach(() => {
    configs = [];
    installFakeFetch((call) =>
      call.url.endsWith('/api/chat/ice-servers')
        ? { status: 200, body: { iceServers: [{ urls: ['stun:relay.example:3478'] }, TURN], ttlSeconds: 3600 } }
        : { status: 404, body: { error: 'Not found' } },
    );
    /** Enough of a peer connection for the hook to set one up; it records its configuration. */
    class FakePeer {
      constructor(config: RTCConfiguration) {
        configs.push(config);
      }
      addTrack() {}
      close() {}
    }
    Object.assign(globalThis, { RTCPeerConnection: FakePeer });
  });
  afterEach(() => localStorage.removeItem(RELAY_ONLY_KEY));

  const matched = {
    type: 'matched',
    sessionId: 's-1',
    data: { peer: { displayName: 'Bo' }, compatibilityScore: 0.5, isInitiator: false },
  };

  it("a call uses the site's STUN and TURN servers from GET /api/chat/ice-servers", async () => {
    renderWithApp(<ChatProbe />, { path: '/chat' });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => FakeSocket.all[0]!.receive(matched));
    expect(configs).toEqual([{ iceServers: [{ urls: ['stun:relay.example:3478'] }, TURN], iceTransportPolicy: 'all' }]);
  });

  it(`relays every call through TURN when localStorage ${RELAY_ONLY_KEY} is 'relay' (tests only)`, async () => {
    localStorage.setItem(RELAY_ONLY_KEY, 'relay');
    renderWithApp(<ChatProbe />, { path: '/chat' });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => FakeSocket.all[0]!.receive(matched));
    expect(configs[0]?.iceTransportPolicy).toBe('relay');
  });
});
