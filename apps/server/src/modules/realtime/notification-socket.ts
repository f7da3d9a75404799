/**
 * `/websocket`, the per-user notification socket (ARCHITECTURE §5, docs/realtime.md). The first message must
 * be `{"type":"auth","token":"…"}` (tokens never travel in the URL: its query is ignored); the server answers
 * `{"type":"ready"}`, then sends `{"type":"notification",…}` messages and answers each 'heartCheck' with
 * 'heartCheck'. The heartbeat is answered only once authenticated: as a first message it is refused like
 * anything that is not the auth message, and while the token is being checked it is ignored. Each answered
 * heartbeat may re-check the session (read only), so an ended or expired session stops receiving.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  HEART_CHECK,
  NOTIFICATION_SOCKET_PATH,
  REALTIME_TIMING,
  type SocketServerMessage,
  socketAuthMessage,
} from '@uiot/contracts';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { SessionUser } from '../../http/request-context.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { NotificationHub, NotificationPeer } from './notification-hub.ts';

/** Close codes of `/websocket` (4000–4999 are the application's). */
export const SOCKET_CLOSE = {
  /** The server stops. */
  goingAway: 1001,
  /** A binary message. */
  unsupported: 1003,
  /** No valid token first, a token that does not sign in, a user held at the forced password change, or a session that ended. */
  unauthorized: 4401,
  /** No authentication in time, or silence for longer than three heartbeats. */
  timeout: 4408,
  /** The user opened more connections than allowed; the oldest goes. */
  tooMany: 4429,
} as const;

export interface NotificationSocketOptions {
  server: Server;
  hub: NotificationHub;
  resolveSession: (
    token: string,
  ) => Promise<Pick<SessionUser, 'staffId' | 'tokenHash' | 'mustChangePassword'> | null>;
  logger: ModuleLogger;
  /** Largest message a client may send (default 4 KiB). */
  maxPayload?: number;
  /** Time allowed for the first message (default REALTIME_TIMING.socketAuthTimeoutMs). */
  authTimeoutMs?: number;
  /** Silence after which an authenticated connection is closed (default three heartbeats). */
  silenceMs?: number;
  /** A heartbeat re-checks the session when it was last checked this long ago (default 30 s). */
  recheckMs?: number;
  /** Most connections at once, authenticated or not (default 10 000). */
  maxConnections?: number;
}

export interface NotificationSocket {
  /** Open connections. */
  readonly connections: number;
  /** Stops taking connections and closes those open. */
  close(): Promise<void>;
}

function pathnameOf(url: string | undefined): string | null {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

function refuse(socket: Duplex, status: string): void {
  socket.on('error', () => {});
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** Serves `/websocket` on the API's HTTP server; every other upgrade request is refused. */
export function attachNotificationSocket(options: NotificationSocketOptions): NotificationSocket {
  const { hub, logger } = options;
  const authTimeoutMs = options.authTimeoutMs ?? REALTIME_TIMING.socketAuthTimeoutMs;
  const silenceMs = options.silenceMs ?? 3 * REALTIME_TIMING.socketHeartbeatMs;
  const recheckMs = options.recheckMs ?? 30_000;
  const maxConnections = options.maxConnections ?? 10_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 4096 });
  const open = new Set<WebSocket>();
  let closed = false;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathnameOf(req.url) !== NOTIFICATION_SOCKET_PATH) return refuse(socket, '404 Not Found');
    if (closed || open.size >= maxConnections) return refuse(socket, '503 Service Unavailable');
    socket.on('error', () => {
      /* a peer resetting during the handshake must not take the server down */
    });
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      ws.once('close', () => open.delete(ws));
      serve(ws);
    });
  };
  options.server.on('upgrade', onUpgrade);

  const serve = (ws: WebSocket) => {
    let state: 'awaiting' | 'authenticating' | 'ready' | 'closed' = 'awaiting';
    let peer: NotificationPeer | null = null;
    let checkedAt = 0;
    let silence: NodeJS.Timeout | null = null;
    // A function, not an inline test: the state changes while a session is being resolved.
    const isClosed = () => state === 'closed';
    const close = (code: number, reason: string) => {
      if (isClosed()) return;
      state = 'closed';
      ws.close(code, reason);
    };
    const authTimer = setTimeout(() => close(SOCKET_CLOSE.timeout, 'authentication timeout'), authTimeoutMs);
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => close(SOCKET_CLOSE.timeout, 'heartbeat missing'), silenceMs);
    };
    const send = (message: SocketServerMessage | typeof HEART_CHECK) => {
      if (state === 'closed' || ws.readyState !== WebSocket.OPEN) return;
      ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    };

    const authenticate = async (text: string) => {
      let token: string | null = null;
      try {
        const parsed = socketAuthMessage.safeParse(JSON.parse(text));
        if (parsed.success) token = parsed.data.token;
      } catch {
        // not JSON: refused below
      }
      if (!token) return close(SOCKET_CLOSE.unauthorized, 'authentication required');
      state = 'authenticating';
      let user: Awaited<ReturnType<NotificationSocketOptions['resolveSession']>> = null;
      try {
        user = await options.resolveSession(token);
      } catch (error) {
        logger.warn({ error: errorMessage(error) }, 'notification socket could not check a session');
      }
      if (isClosed()) return;
      if (!user || user.mustChangePassword) return close(SOCKET_CLOSE.unauthorized, 'not signed in');
      clearTimeout(authTimer);
      peer = {
        staffId: user.staffId,
        tokenHash: user.tokenHash,
        send,
        sessionEnded: () => close(SOCKET_CLOSE.unauthorized, 'session ended'),
        displaced: () => close(SOCKET_CLOSE.tooMany, 'too many connections'),
      };
      checkedAt = Date.now();
      state = 'ready';
      hub.add(peer);
      send({ type: 'ready' });
      heard();
    };

    const heartbeat = async () => {
      if (peer && Date.now() - checkedAt >= recheckMs) {
        checkedAt = Date.now();
        if (!(await hub.recheck(peer))) return;
      }
      send(HEART_CHECK);
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (state === 'closed') return;
      if (isBinary) return close(SOCKET_CLOSE.unsupported, 'text messages only');
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.concat(data as Buffer[]).toString('utf8');
      switch (state) {
        case 'awaiting':
          void authenticate(text);
          return;
        case 'authenticating':
          return;
        case 'ready':
          heard();
          if (text === HEART_CHECK) void heartbeat();
          return;
      }
    });
    ws.on('error', () => {
      /* followed by 'close' */
    });
    ws.on('close', () => {
      state = 'closed';
      clearTimeout(authTimer);
      if (silence) clearTimeout(silence);
      if (peer) hub.remove(peer);
    });
  };

  return {
    get connections() {
      return open.size;
    },
    async close() {
      closed = true;
      options.server.off('upgrade', onUpgrade);
      const ended = [...open].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(SOCKET_CLOSE.goingAway, 'server stopping');
            // A peer that does not answer the close handshake is cut off.
            setTimeout(() => ws.terminate(), 1_000).unref();
          }),
      );
      await Promise.all(ended);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
