import uWS from 'uWebSockets.js';

export interface RealtimeServer {
  port: number;
  openSockets(): number;
  close(): Promise<void>;
}

interface SocketData {
  closed: boolean;
}

/**
 * The realtime service on uWebSockets.js. Reached by browsers through the web origin's
 * /ws/ path (the API server forwards upgrades here).
 */
export async function startRealtimeServer(options: { port: number; host?: string }): Promise<RealtimeServer> {
  let sockets = 0;
  const app = uWS.App();
  app.ws<SocketData>('/ws/*', {
    maxPayloadLength: 64 * 1024,
    maxBackpressure: 1024 * 1024,
    idleTimeout: 120,
    upgrade: (res, req, context) => {
      res.upgrade<SocketData>(
        { closed: false },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      sockets++;
      ws.send(JSON.stringify({ type: 'connected' }));
    },
    message: (ws, message) => {
      let parsed: { type?: unknown } | null = null;
      try {
        parsed = JSON.parse(Buffer.from(message).toString('utf8'));
      } catch {
        parsed = null;
      }
      if (parsed?.type === 'heartbeat') ws.send(JSON.stringify({ type: 'heartbeat_ack' }));
      else ws.send(JSON.stringify({ type: 'error', error: 'Unknown message' }));
    },
    close: (ws) => {
      ws.getUserData().closed = true;
      sockets--;
    },
  });
  app.get('/health', (res) => {
    res.end('ok');
  });
  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(options.host ?? '127.0.0.1', options.port, (socket) => (socket ? resolve(socket) : reject(new Error(`realtime: cannot listen on ${options.port}`))));
  });
  return {
    port: uWS.us_socket_local_port(listenSocket),
    openSockets: () => sockets,
    async close() {
      uWS.us_listen_socket_close(listenSocket);
      app.close();
    },
  };
}
