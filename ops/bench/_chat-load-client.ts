import net from 'node:net';

/**
 * A minimal WebSocket client for the chat benchmark, cheap enough that one process can drive
 * thousands of sockets on a machine it shares with the server: raw TCP sockets, frames built
 * once and written as they are (client frames are masked with a zero key: valid, and no XOR
 * pass), server frames read in place and handed over as (buffer, start, end) with no copy, no
 * string and no JSON unless the caller wants one.
 */

/** One client text frame (masked with a zero key), ready to be written to any socket. */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const head =
    n < 126 ? Buffer.from([0x81, 0x80 | n]) : n < 65536 ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 255]) : null;
  if (!head) throw new Error('frame too large for the load client');
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

const READ_BUFFER = Buffer.alloc(256 * 1024);

export type FrameHandler = (buffer: Buffer, start: number, end: number) => void;

export class LoadSocket {
  private pending: Buffer | null = null;
  private upgraded = false;
  closed = false;

  private constructor(
    readonly socket: net.Socket,
    private readonly onFrame: FrameHandler,
  ) {}

  /** Opens `path` on 127.0.0.1:`port` and resolves once the server answered 101. */
  static open(port: number, path: string, headers: Record<string, string>, onFrame: FrameHandler): Promise<LoadSocket> {
    return new Promise((resolve, reject) => {
      // eslint-disable-next-line prefer-const -- the read callback below refers to it before it is made
      let client: LoadSocket;
      // Reads land in one shared buffer and are handled at once (no stream, no 'data' event, no
      // Buffer per read); what must outlive the callback is copied.
      const socket = net.connect({
        port,
        host: '127.0.0.1',
        noDelay: true,
        onread: { buffer: READ_BUFFER, callback: (n) => (client.received(READ_BUFFER.subarray(0, n)), true) },
      });
      client = new LoadSocket(socket, onFrame);
      client.resolve = resolve;
      client.reject = reject;
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.once('connect', () =>
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
        ),
      );
      socket.on('error', (error) => (client.upgraded ? (client.closed = true) : reject(error)));
      socket.on('close', () => (client.closed = true));
    });
  }

  private resolve: ((socket: LoadSocket) => void) | null = null;
  private reject: ((error: Error) => void) | null = null;

  private received(chunk: Buffer): void {
    if (this.upgraded) return this.read(chunk);
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) return void (this.pending = data);
    this.pending = null;
    if (!data.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) {
      this.socket.destroy();
      return this.reject?.(new Error(`upgrade refused: ${data.subarray(0, end).toString().split('\r\n')[0]}`));
    }
    this.upgraded = true;
    this.resolve?.(this);
    if (data.length > end + 4) this.read(data.subarray(end + 4));
  }

  send(frame: Buffer): void {
    if (!this.closed) this.socket.write(frame);
  }

  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }

  /** Server frames are unmasked; a chunk usually holds whole frames, so leftovers are rare. */
  private read(chunk: Buffer): void {
    let data = chunk;
    if (this.pending) {
      data = Buffer.concat([this.pending, chunk]);
      this.pending = null;
    }
    let at = 0;
    while (data.length - at >= 2) {
      const opcode = data[at] & 0x0f;
      let length = data[at + 1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (data.length - at < 4) break;
        length = data.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (data.length - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (data.length - at < header + length) break;
      const start = at + header;
      at = start + length;
      if (opcode === 1 || opcode === 2) this.onFrame(data, start, at);
      else if (opcode === 8) this.closed = true;
    }
    // The read buffer is reused: keep a copy of a partial frame.
    if (at < data.length) this.pending = Buffer.from(data.subarray(at));
  }
}
