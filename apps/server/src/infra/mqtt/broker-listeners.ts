import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Aedes, Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { boundReads } from './bounded-reads.ts';
import { log } from './broker-child-ipc.ts';
import type { BrokerClients } from './broker-clients.ts';
import type { BrokerConfigMessage, BrokerTransport } from './broker-ipc.ts';
import { coalesceWrites } from './coalesced-writes.ts';
import { deliverToConsolesWithoutWaiting } from './console-deliveries.ts';
import type { BrokerPrincipal } from './topic-acl.ts';

export const WS_PATH = '/mqtt';
/** At most this much of one connection is parsed at a time (see bounded-reads.ts): ~45 reports. */
export const READ_CHUNK_BYTES = 8192;

/**
 * How much of a connection is parsed at a time: `READ_CHUNK_BYTES` for a device, a console and a connection
 * not yet signed in; the server's own connection in full. It carries the acknowledgement of every report
 * delivered to the server and the console events (up to 256 KiB each): read 8 KiB a turn by a broker busy
 * with a thousand devices, it fell behind without end and the consoles' live events came seconds, then
 * minutes, late.
 */
export function readChunkBytesOf(principal: BrokerPrincipal | undefined): number {
  return principal?.kind === 'internal' ? Number.POSITIVE_INFINITY : READ_CHUNK_BYTES;
}

interface PatchableParser {
  packet: { length: number };
  _parseLength: () => boolean;
  _emitError: (error: Error) => void;
}

export interface BrokerListeners {
  tcpServer: TcpServer;
  httpServer: HttpServer;
  wss: WebSocketServer;
  /** The raw sockets open on both listeners. */
  sockets: Set<Socket | Duplex>;
}

type ListenerConfig = Pick<BrokerConfigMessage, 'maxPacketSize' | 'maxConnections' | 'tls'>;

/**
 * The broker's two listeners, not yet listening: MQTT over TCP, and MQTT over WebSocket on its own port at
 * /mqtt (over TLS with the server's certificate). Both count their sockets against one bound and hand each
 * connection to aedes with its packet size and reads bounded.
 */
export function brokerListeners(
  config: ListenerConfig,
  broker: Aedes,
  clients: BrokerClients,
): BrokerListeners {
  const sockets = new Set<Socket | Duplex>();
  const limitPacketSize = packetSizeLimiter(config.maxPacketSize);
  let readPatchWarned = false;
  let deliveryPatchWarned = false;

  function accept(
    conn: Socket | Duplex,
    raw: Socket,
    transport: BrokerTransport,
    req?: IncomingMessage,
  ): void {
    // Devices and the server speak TCP and carry every report; a WebSocket stream drops what it still
    // holds when it is destroyed, and browsers get few, large messages anyway.
    if (transport === 'tcp') coalesceWrites(conn as Socket);
    const client = broker.handle(conn, req);
    clients.transports.set(client, transport);
    limitPacketSize(client);
    const mayRead = () => (clients.waitingOf.get(client) ?? 0) === 0;
    const chunkBytes = () => readChunkBytesOf(clients.principalOf(client));
    if (!boundReads(client, conn, chunkBytes, mayRead) && !readPatchWarned) {
      readPatchWarned = true;
      log('warn', 'cannot bound how much of a connection is read at once with this aedes version');
    }
    const isConsole = () => clients.principalOf(client)?.kind === 'console';
    const behind = (backlogBytes: number) =>
      log('warn', 'console disconnected: it does not read what it is sent', {
        clientId: client.id,
        backlogBytes,
      });
    if (!deliverToConsolesWithoutWaiting(client, conn, isConsole, behind) && !deliveryPatchWarned) {
      deliveryPatchWarned = true;
      log('warn', 'cannot keep consoles from holding up deliveries with this aedes version');
    }
    raw.once('close', () => clients.release(client));
  }

  /** Admission control shared by both listeners: counts raw sockets, refuses beyond the bound. */
  function admitSocket(socket: Socket): boolean {
    if (sockets.size >= config.maxConnections) {
      log('warn', 'connection limit reached; connection refused', { maxConnections: config.maxConnections });
      return false;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return true;
  }

  // TCP listener
  const tcpServer: TcpServer = createTcpServer((socket) => {
    if (!admitSocket(socket)) {
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    accept(socket, socket, 'tcp');
  });

  // WebSocket listener on its own port, path /mqtt
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxPacketSize + 16 });
  const answerPlainRequest = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
    res.end(`MQTT over WebSocket: connect to ${WS_PATH}\n`);
  };
  // With the server's certificate, browsers of a console served over HTTPS reach it as wss://.
  const httpServer: HttpServer = config.tls
    ? createHttpsServer({ cert: config.tls.cert, key: config.tls.key }, answerPlainRequest)
    : createHttpServer(answerPlainRequest);
  httpServer.maxConnections = config.maxConnections;
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const raw = socket as Socket;
    raw.on('error', () => {
      /* a peer resetting during the handshake must not take the broker down */
    });
    let pathname = '';
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      // malformed request target: answered 404 below
    }
    if (pathname !== WS_PATH) {
      raw.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (!admitSocket(raw)) {
      raw.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, raw, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', () => {
        /* reported and handled by aedes through the client */
      });
      accept(stream, raw, 'ws', req);
    });
  });

  return { tcpServer, httpServer, wss, sockets };
}

/** Bounds the size of a single MQTT packet (aedes has no such option; mqtt-packet accepts 256 MB). */
function packetSizeLimiter(maxPacketSize: number): (client: Client) => void {
  let parserPatchWarned = false;
  return (client) => {
    const parser = (client as unknown as { _parser?: Partial<PatchableParser> })._parser;
    if (!parser || typeof parser._parseLength !== 'function' || typeof parser._emitError !== 'function') {
      if (!parserPatchWarned) {
        parserPatchWarned = true;
        log('warn', 'cannot bound the MQTT packet size with this aedes version');
      }
      return;
    }
    const p = parser as PatchableParser;
    const parseLength = p._parseLength;
    p._parseLength = function boundedParseLength(this: PatchableParser) {
      const complete = parseLength.call(this);
      if (complete && this.packet.length > maxPacketSize) {
        this._emitError(new Error(`packet of ${this.packet.length} bytes exceeds ${maxPacketSize}`));
        return false;
      }
      return complete;
    };
  };
}
