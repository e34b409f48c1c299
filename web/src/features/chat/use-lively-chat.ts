import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMode, ServerMessage } from '@contracts/chat';
import { ACCOUNT_DEACTIVATED_TEXT } from '@contracts/safety';
import { dismissToast, toast, type ToastInput } from '@/components/toast';
import { useLazyIceServersQuery } from './ice-servers-api';

/** SPEC §4 chat status. */
export type ChatStatus = 'idle' | 'finding_match' | 'matched' | 'connected' | 'error';

export interface ChatMatch {
  sessionId: string;
  peerName: string;
  /** The partner's chat profile photos (public URLs), first shown first. */
  peerPhotos?: string[];
  score: number;
  isInitiator: boolean;
}

export interface ChatSettings {
  mode: ChatMode;
  ageRange: [number, number];
  orientation: string;
}

/** Public STUN: used only until (or if) GET /api/chat/ice-servers answers with the site's own servers. */
export const FALLBACK_ICE_SERVERS: RTCIceServer[] = [
  { urls: 'stun:stun.l.google.com:19302' },
  { urls: 'stun:stun1.l.google.com:19302' },
  { urls: 'stun:stun2.l.google.com:19302' },
];
/**
 * Test only: localStorage `chatIceTransportPolicy` = 'relay' sends every call through the TURN
 * relay (web/e2e/chat-relay.test.ts). The product never sets it.
 */
export const RELAY_ONLY_KEY = 'chatIceTransportPolicy';
/** TURN credentials are asked for again this long before they expire. */
const ICE_REFRESH_MARGIN_S = 5 * 60;
/** The socket waits at most this long for the ICE servers (then calls start with the fallback). */
const ICE_WAIT_MS = 5000;

function iceTransportPolicy(): RTCIceTransportPolicy {
  try {
    return localStorage.getItem(RELAY_ONLY_KEY) === 'relay' ? 'relay' : 'all';
  } catch {
    return 'all';
  }
}
export const HEARTBEAT_MS = 30_000;
export const OFFER_DELAY_MS = 1000;
export const REQUEUE_DELAY_MS = 1000;

/**
 * Lively Chat in the browser: camera first, then the chat socket (SPEC §7), the queue, and one
 * RTCPeerConnection per match. The initiator offers about 1 s after the match; the other answers.
 */
export function useLivelyChat(userId: string | null, ageVerified: boolean) {
  const [socketOpen, setSocketOpen] = useState(false);
  const [status, setStatus] = useState<ChatStatus>('idle');
  /** The mode of the queue this side last joined (Next may rejoin in the other mode). */
  const [queueMode, setQueueMode] = useState<ChatMode | null>(null);
  /** Counts joins: a new search restarts the page's "no match yet" clock. */
  const [searches, setSearches] = useState(0);
  const [chatting, setChatting] = useState(false);
  const [match, setMatch] = useState<ChatMatch | null>(null);
  const [localStream, setLocalStream] = useState<MediaStream | null>(null);
  const [remoteStream, setRemoteStream] = useState<MediaStream | null>(null);
  const [videoEnabled, setVideoEnabled] = useState(true);
  const [audioEnabled, setAudioEnabled] = useState(true);

  const ws = useRef<WebSocket | null>(null);
  const pc = useRef<RTCPeerConnection | null>(null);
  const iceServers = useRef<RTCIceServer[]>(FALLBACK_ICE_SERVERS);
  const [fetchIceServers] = useLazyIceServersQuery();
  const matchRef = useRef<ChatMatch | null>(null);
  const local = useRef<MediaStream | null>(null);
  const pendingCandidates = useRef<RTCIceCandidateInit[]>([]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  /** Toasts this chat raised: dismissed when the page goes, so a 'Chat Error' does not outlive /chat. */
  const raised = useRef(new Set<string>());
  /** Staff suspended or banned this account: the service said so and closed; trying again is pointless. */
  const deactivated = useRef(false);
  const [accountDeactivated, setAccountDeactivated] = useState(false);

  const notify = useCallback((input: ToastInput) => {
    raised.current.add(toast(input).id);
  }, []);
  const chatError = useCallback(
    (description: string) => notify({ title: 'Chat Error', description, variant: 'destructive' }),
    [notify],
  );

  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      work();
    }, ms);
    timers.current.add(timer);
  };
  const clearTimers = () => {
    for (const timer of timers.current) clearTimeout(timer);
    timers.current.clear();
  };

  const send = useCallback((message: Record<string, unknown>) => {
    const socket = ws.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }, []);

  /** Ends the current peer connection and forgets the match. */
  const endPeer = useCallback(() => {
    clearTimers();
    const connection = pc.current;
    pc.current = null;
    if (connection) {
      connection.onicecandidate = connection.ontrack = connection.onconnectionstatechange = null;
      connection.close();
    }
    pendingCandidates.current = [];
    matchRef.current = null;
    setMatch(null);
    setRemoteStream(null);
  }, []);

  const createPeer = useCallback(
    (current: ChatMatch) => {
      const connection = new RTCPeerConnection({
        iceServers: iceServers.current,
        iceTransportPolicy: iceTransportPolicy(),
      });
      pc.current = connection;
      for (const track of local.current?.getTracks() ?? []) connection.addTrack(track, local.current!);
      connection.onicecandidate = (event) => {
        if (event.candidate)
          send({ type: 'ice_candidate', sessionId: current.sessionId, data: event.candidate.toJSON() });
      };
      connection.ontrack = (event) => setRemoteStream(event.streams[0] ?? new MediaStream([event.track]));
      connection.onconnectionstatechange = () => {
        if (pc.current !== connection) return;
        if (connection.connectionState === 'connected') setStatus('connected');
        else if (connection.connectionState === 'failed' || connection.connectionState === 'disconnected') {
          // The chat is over for this side: tell the service, end the peer, say so.
          send({ type: 'leave', sessionId: current.sessionId });
          endPeer();
          setChatting(false);
          setStatus('idle');
          chatError('Connection lost');
        }
      };
      return connection;
    },
    [chatError, endPeer, send],
  );

  const flushCandidates = async (connection: RTCPeerConnection) => {
    for (const candidate of pendingCandidates.current.splice(0)) await connection.addIceCandidate(candidate);
  };

  const onMessage = useCallback(
    async (message: ServerMessage) => {
      switch (message.type) {
        case 'waiting':
          setStatus('finding_match');
          return;
        case 'matched': {
          endPeer();
          const current: ChatMatch = {
            sessionId: message.sessionId,
            peerName: message.data.peer.displayName,
            peerPhotos: message.data.peer.photos ?? [],
            score: message.data.compatibilityScore,
            isInitiator: message.data.isInitiator,
          };
          matchRef.current = current;
          setMatch(current);
          setStatus('matched');
          const connection = createPeer(current);
          if (current.isInitiator) {
            later(OFFER_DELAY_MS, async () => {
              if (pc.current !== connection) return;
              try {
                const offer = await connection.createOffer();
                await connection.setLocalDescription(offer);
                send({ type: 'offer', sessionId: current.sessionId, data: offer });
              } catch {
                chatError('Failed to start video call.');
              }
            });
          }
          return;
        }
        case 'offer':
        case 'answer':
        case 'ice_candidate': {
          const connection = pc.current;
          if (!connection || message.sessionId !== matchRef.current?.sessionId) return;
          try {
            if (message.type === 'offer') {
              await connection.setRemoteDescription(message.data as RTCSessionDescriptionInit);
              await flushCandidates(connection);
              const answer = await connection.createAnswer();
              await connection.setLocalDescription(answer);
              send({ type: 'answer', sessionId: message.sessionId, data: answer });
            } else if (message.type === 'answer') {
              await connection.setRemoteDescription(message.data as RTCSessionDescriptionInit);
              await flushCandidates(connection);
              setStatus('connected');
            } else if (connection.remoteDescription)
              await connection.addIceCandidate(message.data as RTCIceCandidateInit);
            else pendingCandidates.current.push(message.data as RTCIceCandidateInit);
          } catch {
            chatError('Failed to process signaling message.');
          }
          return;
        }
        case 'skipped':
          // The partner skipped or left: this chat is over; the service queues us again.
          if (message.sessionId === matchRef.current?.sessionId) {
            endPeer();
            setStatus('finding_match');
          }
          return;
        case 'error':
          setStatus('error');
          if (message.error === ACCOUNT_DEACTIVATED_TEXT) {
            deactivated.current = true;
            setAccountDeactivated(true);
          }
          chatError(message.error || 'An error occurred');
          return;
        default:
          return;
      }
    },
    [chatError, createPeer, endPeer, send],
  );

  // Camera and microphone first; the socket opens once they are granted (SPEC §7).
  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    let socket: WebSocket | null = null;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    let reconnect: ReturnType<typeof setTimeout> | null = null;
    let iceRefresh: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;

    /** The site's STUN and TURN servers, asked for again before the TURN credentials expire. */
    async function loadIceServers() {
      try {
        const answer = await fetchIceServers(undefined, false).unwrap();
        if (cancelled) return;
        iceServers.current = answer.iceServers;
        const refreshS = Math.max(30, answer.ttlSeconds - ICE_REFRESH_MARGIN_S);
        iceRefresh = setTimeout(() => void loadIceServers(), refreshS * 1000);
      } catch {
        // Keep what we have (public STUN at first); try again in a minute.
        if (!cancelled) iceRefresh = setTimeout(() => void loadIceServers(), 60_000);
      }
    }
    (async () => {
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: true });
      } catch {
        if (!cancelled) chatError('Please allow camera and microphone access to use chat.');
        return;
      }
      if (cancelled) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      local.current = stream;
      setLocalStream(stream);
      await Promise.race([loadIceServers(), new Promise((resolve) => setTimeout(resolve, ICE_WAIT_MS))]);
      if (!cancelled) connect();
    })();

    /** Opens the socket; a dropped socket ends any chat and is reopened half a second later (then backing off). */
    function connect() {
      if (cancelled) return;
      try {
        const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
        socket = new WebSocket(`${scheme}://${window.location.host}/ws/chat?userId=${encodeURIComponent(userId!)}`);
      } catch {
        chatError('Failed to initialize video chat.');
        return;
      }
      const current = socket;
      ws.current = current;
      let opened = false;
      current.onopen = () => {
        opened = true;
        failures = 0;
        setSocketOpen(true);
        heartbeat = setInterval(() => send({ type: 'heartbeat' }), HEARTBEAT_MS);
      };
      current.onerror = () => {
        if (cancelled || (!opened && failures > 0)) return; // page gone, or said once already
        chatError('Connection error. Please refresh and try again.');
      };
      current.onclose = () => {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = null;
        if (cancelled || ws.current !== current) return;
        ws.current = null;
        setSocketOpen(false);
        if (matchRef.current) endPeer();
        setChatting(false);
        // A deactivated account keeps the service's words on screen instead of reconnecting.
        if (deactivated.current) return;
        setStatus('idle');
        failures++;
        // 0.5, 1, 2, 4 s…: a page whose realtime process died is on another one within 5 s (issue 24),
        // even when the first try still meets the dead one.
        reconnect = setTimeout(connect, Math.min(10_000, 500 * 2 ** (failures - 1)));
      };
      current.onmessage = (event) => {
        let message: ServerMessage;
        try {
          message = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (!cancelled) void onMessage(message);
      };
    }
    const toasts = raised.current;
    return () => {
      cancelled = true;
      if (heartbeat) clearInterval(heartbeat);
      if (reconnect) clearTimeout(reconnect);
      if (iceRefresh) clearTimeout(iceRefresh);
      // Closing a socket that is still connecting fires `error`: nothing of it may reach the next page.
      if (socket) socket.onopen = socket.onerror = socket.onclose = socket.onmessage = null;
      socket?.close();
      ws.current = null;
      endPeer();
      for (const track of local.current?.getTracks() ?? []) track.stop();
      local.current = null;
      for (const id of toasts) dismissToast(id);
      toasts.clear();
    };
  }, [userId, onMessage, endPeer, send, chatError, fetchIceServers]);

  const join = useCallback(
    (settings: ChatSettings, mode: ChatMode = settings.mode) => {
      const filters =
        mode === 'standard'
          ? { ageRange: settings.ageRange, orientation: settings.orientation }
          : { ageRange: settings.ageRange };
      if (!send({ type: 'join_queue', mode, filters })) {
        chatError('Not connected to chat service.');
        return false;
      }
      setQueueMode(mode);
      setSearches((count) => count + 1);
      setStatus('finding_match');
      return true;
    },
    [chatError, send],
  );

  const start = useCallback(
    (settings: ChatSettings) => {
      if (!ageVerified) {
        notify({
          title: 'Age Verification Required',
          description: 'You must verify your age before using the chat feature.',
          variant: 'destructive',
        });
        return;
      }
      if (join(settings)) setChatting(true);
    },
    [ageVerified, join, notify],
  );

  const next = useCallback(
    (settings: ChatSettings) => {
      const current = matchRef.current;
      send({ type: 'skip', sessionId: current?.sessionId });
      endPeer();
      setStatus('finding_match');
      notify({ title: 'Finding Next Match', description: 'Looking for someone new to chat with...' });
      // SPEC §4: rejoin about 1 s later, standard if this side was the initiator, else random.
      later(REQUEUE_DELAY_MS, () =>
        join(settings, current ? (current.isInitiator ? 'standard' : 'random') : settings.mode),
      );
    },
    [endPeer, join, notify, send],
  );

  const leave = useCallback(() => {
    send({ type: 'leave', sessionId: matchRef.current?.sessionId });
    endPeer();
    setChatting(false);
    setStatus('idle');
    notify({ title: 'Chat Ended', description: "You've left the chat room." });
  }, [endPeer, notify, send]);

  const toggleTrack = (kind: 'video' | 'audio') => {
    const track = kind === 'video' ? local.current?.getVideoTracks()[0] : local.current?.getAudioTracks()[0];
    if (!track) return;
    track.enabled = !track.enabled;
    (kind === 'video' ? setVideoEnabled : setAudioEnabled)(track.enabled);
  };

  return {
    socketOpen,
    status,
    accountDeactivated,
    queueMode,
    searches,
    chatting,
    match,
    localStream,
    remoteStream,
    videoEnabled,
    audioEnabled,
    start,
    /** While searching: queue again with other settings (the service replaces the earlier place). */
    search: join,
    next,
    leave,
    toggleVideo: () => toggleTrack('video'),
    toggleAudio: () => toggleTrack('audio'),
  };
}
