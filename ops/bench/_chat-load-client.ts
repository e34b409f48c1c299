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
  const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : n < 65536 ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 255]) : null;
  if (!head) throw new Error('frame too large for the load client');
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

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
      const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
      const client = new LoadSocket(socket, onFrame);
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.once('connect', () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`),
      );
      socket.on('data', (chunk: Buffer) => {
        if (client.upgraded) return client.read(chunk);
        const data = client.pending ? Buffer.concat([client.pending, chunk]) : chunk;
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return void (client.pending = data);
        client.pending = null;
        if (!data.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) {
          socket.destroy();
          return reject(new Error(`upgrade refused: ${data.subarray(0, end).toString().split('\r\n')[0]}`));
        }
        client.upgraded = true;
        resolve(client);
        if (data.length > end + 4) client.read(data.subarray(end + 4));
      });
      socket.on('error', (error) => (client.upgraded ? (client.closed = true) : reject(error)));
      socket.on('close', () => (client.closed = true));
    });
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
    if (at < data.length) this.pending = data.subarray(at);
  }
}
