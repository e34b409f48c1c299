/** GET /api/chat/ice-servers: what a chat page gives its RTCPeerConnection (STUN, and TURN with credentials). */
export interface IceServer {
  urls: string[];
  /** TURN only: `<expiry unix seconds>:<userId>` (the TURN REST scheme). */
  username?: string;
  /** TURN only: base64(HMAC-SHA1(secret, username)). */
  credential?: string;
}

export interface IceServers {
  iceServers: IceServer[];
  /** How long the credentials stay valid from now (seconds); the page asks again before then. */
  ttlSeconds: number;
}
