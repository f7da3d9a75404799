import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { sameSecret } from '../../lib/same-secret.ts';
import { boundReads } from './bounded-reads.ts';
import { AuthGateway, userKeyOf } from './broker-auth-gateway.ts';
import { log, send } from './broker-child-ipc.ts';
import { ConsoleConnections } from './broker-consoles.ts';
import type {
  BrokerConfigMessage,
  BrokerPortVariable,
  BrokerTransport,
  ConsoleScope,
  ParentToBrokerMessage,
} from './broker-ipc.ts';
import { coalesceWrites } from './coalesced-writes.ts';
import { PublishAdmission } from './publish-admission.ts';
import {
  type BrokerPrincipal,
  canPublish,
  canReceive,
  canSubscribe,
  mayConnectOver,
  parseBrokerIdentity,
} from './topic-acl.ts';

const WS_PATH = '/mqtt';
const CONFIG_TIMEOUT_MS = 15_000;
const SHUTDOWN_GRACE_MS = 5_000;

function authError(message: string, returnCode: 2 | 3 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

// ---------------------------------------------------------------------------------------------------------
// The broker

interface ClientRecord {
  /** Replaced when a console's session changes (the kinds it reads). */
  principal: BrokerPrincipal;
  /** Who may take over this client id: the same principal, from the same username. */
  ownerKey: string;
  userKey: string;
}

interface PatchableParser {
  packet: { length: number };
  _parseLength: () => boolean;
  _emitError: (error: Error) => void;
}

interface RunningBroker {
  shutdown(exitCode: number): Promise<void>;
  revoke(username: string): void;
  refreshConsoles(scope: ConsoleScope): void;
  answer(id: number, ok: boolean, identity: unknown, error: boolean | undefined): void;
  answerRecheck(id: number, identity: unknown, error: boolean | undefined): void;
}

async function startBroker(config: BrokerConfigMessage): Promise<RunningBroker> {
  const gateway = new AuthGateway(config);
  const records = new WeakMap<Client, ClientRecord>();
  const transports = new WeakMap<Client, BrokerTransport>();
  /** Publishes of a connection waiting for admission: it is not read meanwhile. */
  const waitingOf = new WeakMap<Client, number>();
  /** client id → the client currently holding it (authenticated ones only). */
  const owners = new Map<string, Client>();
  const sockets = new Set<Socket | Duplex>();
  let parserPatchWarned = false;
  let readPatchWarned = false;
  const consoles = new ConsoleConnections<Client>({
    ask: (id, session, username) => send({ type: 'recheck', id, session, username }),
    apply: (client, identity) => {
      const record = records.get(client);
      if (record) record.principal = identity;
    },
    close: (client) => client.close(),
    timeoutMs: config.authTimeoutMs,
  });

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const transport = transports.get(client) ?? 'tcp';
      const secret = password === undefined ? undefined : password.toString('utf8');
      const userKey = userKeyOf(username);

      if (username !== undefined && sameSecret(username, config.internalUsername)) {
        if (secret !== undefined && sameSecret(secret, config.internalPassword)) {
          admit(client, { kind: 'internal' }, userKey, done);
        } else {
          done(authError('bad username or password', 4), false);
        }
        return;
      }
      gateway.resolve(client.id, username, secret, transport).then((outcome) => {
        if (outcome.status === 'ok' && mayConnectOver(outcome.identity, transport)) {
          admit(client, outcome.identity, userKey, done, username ?? '');
          // The session changed while the server was deciding: ask again about this connection.
          if (outcome.stale && outcome.identity.kind === 'console')
            consoles.recheck(outcome.identity.session);
        } else if (outcome.status === 'unavailable') done(authError('server unavailable', 3), false);
        else done(authError('bad username or password', 4), false);
      });
    },

    authorizePublish(client, packet: PublishPacket, callback) {
      const record = client ? records.get(client) : undefined;
      if (record && canPublish(record.principal, packet.topic)) {
        // The server's own messages (commands, console events) never wait behind the devices' reports.
        if (client === null || record.principal.kind === 'internal' || admission === null) {
          callback(null);
          return;
        }
        waitingOf.set(client, (waitingOf.get(client) ?? 0) + 1);
        admission.admit(() => {
          waitingOf.set(client, (waitingOf.get(client) ?? 1) - 1);
          callback(null);
        });
        return;
      }
      // MQTT 3.1.1 has no negative PUBACK: aedes closes the connection (MQTT-3.3.5-2).
      callback(new Error(`publishing to ${packet.topic} is not allowed`));
    },

    authorizeSubscribe(client, subscription: Subscription, callback) {
      const record = records.get(client);
      const allowed =
        record !== undefined && canSubscribe(record.principal, subscription.topic, subscription.qos);
      // null = refused: SUBACK carries the failure code 0x80 and the connection stays open.
      callback(null, allowed ? subscription : null);
    },

    // Per message and per connection, with the connection's current identity: a console receives only
    // the kinds it reads now, whatever it subscribed to.
    authorizeForward(client, packet) {
      const record = records.get(client);
      return record && canReceive(record.principal, packet.topic) ? packet : null;
    },
  });

  const admission = publishAdmissionOf(broker);

  function admit(
    client: Client,
    principal: BrokerPrincipal,
    userKey: string,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
    username = '',
  ): void {
    // Who, not what it may read: the user's consoles of a station share a key whatever their kinds.
    const who =
      principal.kind === 'console' ? { kind: 'console', stationId: principal.stationId } : principal;
    const ownerKey = `${JSON.stringify(who)}|${userKey}`;
    const holder = owners.get(client.id);
    const holderRecord = holder ? records.get(holder) : undefined;
    if (holder && holder !== client && !holder.closed && holderRecord && holderRecord.ownerKey !== ownerKey) {
      // Refuse to let one identity take over (disconnect) a session held by another, the server's own above all.
      done(authError('client identifier in use', 2), false);
      return;
    }
    records.set(client, { principal, ownerKey, userKey });
    owners.set(client.id, client);
    if (principal.kind === 'console') consoles.add(client, principal, username);
    done(null, true);
  }

  function release(client: Client): void {
    consoles.remove(client);
    if (client.id && owners.get(client.id) === client) owners.delete(client.id);
  }

  /** Bounds the size of a single MQTT packet (aedes has no such option; mqtt-packet accepts 256 MB). */
  function limitPacketSize(client: Client): void {
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
      if (complete && this.packet.length > config.maxPacketSize) {
        this._emitError(new Error(`packet of ${this.packet.length} bytes exceeds ${config.maxPacketSize}`));
        return false;
      }
      return complete;
    };
  }

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
    transports.set(client, transport);
    limitPacketSize(client);
    const mayRead = () => (waitingOf.get(client) ?? 0) === 0;
    if (!boundReads(client, conn, READ_CHUNK_BYTES, mayRead) && !readPatchWarned) {
      readPatchWarned = true;
      log('warn', 'cannot bound how much of a connection is read at once with this aedes version');
    }
    raw.once('close', () => release(client));
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

  function listen(server: TcpServer | HttpServer, port: number, which: BrokerPortVariable): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(Object.assign(error, { which, port }));
      };
      server.once('error', onError);
      server.listen({ port, host: config.host }, () => {
        server.off('error', onError);
        server.on('error', (error: Error) => log('error', 'listener error', { which, error: error.message }));
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  broker.on('clientError', (client, error) => {
    log('info', 'client error', { clientId: client?.id, error: error.message });
  });
  broker.on('connectionError', (client, error) => {
    log('info', 'connection error', { clientId: client?.id, error: error.message });
  });

  let closing: Promise<void> | null = null;
  function closeAll(): Promise<void> {
    closing ??= (async () => {
      tcpServer.close();
      httpServer.close();
      gateway.clear();
      consoles.clear();
      admission?.releaseAll();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      httpServer.closeAllConnections();
    })();
    return closing;
  }

  let tcpPort: number;
  let wsPort: number;
  try {
    tcpPort = await listen(tcpServer, config.port, 'MQTT_PORT');
    wsPort = await listen(httpServer, config.wsPort, 'MQTT_WS_PORT');
  } catch (error) {
    await closeAll();
    throw error;
  }
  log('info', 'listening', { host: config.host ?? '(all interfaces)', port: tcpPort, wsPort, path: WS_PATH });
  send({ type: 'ready', port: tcpPort, wsPort });

  return {
    async shutdown(exitCode: number) {
      await closeAll();
      process.exit(exitCode);
    },
    revoke(username: string) {
      const userKey = userKeyOf(username);
      gateway.forgetUser(userKey);
      for (const client of owners.values()) {
        if (records.get(client)?.userKey === userKey) client.close();
      }
    },
    refreshConsoles(scope: ConsoleScope) {
      gateway.forgetConsoles(scope);
      consoles.refresh(scope);
    },
    answer(id, ok, identity, error) {
      gateway.answer(id, ok, identity, error);
    },
    answerRecheck(id, identity, error) {
      const parsed = error ? null : parseBrokerIdentity(identity);
      if (!error && identity != null && !parsed) {
        log('error', 'the server returned an invalid broker identity; connections closed');
      }
      consoles.answer(id, parsed, error === true);
    },
  };
}

/** Device publishes enter aedes' delivery only while its queue is short (see publish-admission.ts). */
const ADMIT_BELOW = 2000;
const RELEASE_BELOW = 1000;
/** At most this much of one connection is parsed at a time (see bounded-reads.ts): ~45 reports. */
const READ_CHUNK_BYTES = 8192;

function publishAdmissionOf(broker: Aedes): PublishAdmission | null {
  const queue = (broker as unknown as { mq?: { length?: unknown } }).mq;
  if (!queue || typeof queue.length !== 'number') {
    log('warn', 'cannot read the delivery queue of this aedes version; device publishes are not paced');
    return null;
  }
  return new PublishAdmission(queue as { length: number }, {
    high: ADMIT_BELOW,
    low: RELEASE_BELOW,
    schedule: (check) => setImmediate(check),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Process lifecycle

let running: RunningBroker | null = null;
let starting = false;
let stopping = false;

function stop(exitCode: number): void {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(exitCode), SHUTDOWN_GRACE_MS).unref();
  if (running) void running.shutdown(exitCode);
  else if (!starting) process.exit(exitCode);
  // else: startBroker() is still running; it sees `stopping` when it settles.
}

function isConfig(message: ParentToBrokerMessage): message is BrokerConfigMessage {
  return message.type === 'config' && Number.isInteger(message.port) && Number.isInteger(message.wsPort);
}

if (!process.send) {
  console.error('broker-process.ts must be started by embedded-broker.ts (child_process.fork with IPC)');
  process.exit(1);
}

const configTimer = setTimeout(() => {
  console.error('embedded MQTT broker: no configuration received from the server');
  process.exit(1);
}, CONFIG_TIMEOUT_MS);

process.on('message', (raw: unknown) => {
  const message = raw as ParentToBrokerMessage | null;
  switch (message?.type) {
    case 'config':
      if (running || starting || stopping) return;
      if (!isConfig(message)) {
        send({ type: 'error', code: 'EINVAL', message: 'invalid broker configuration' }, () =>
          process.exit(1),
        );
        return;
      }
      clearTimeout(configTimer);
      starting = true;
      startBroker(message).then(
        (broker) => {
          starting = false;
          running = broker;
          if (stopping) void broker.shutdown(0);
        },
        (error: NodeJS.ErrnoException & { which?: BrokerPortVariable; port?: number }) => {
          starting = false;
          const exitCode = stopping ? 0 : 1;
          send(
            {
              type: 'error',
              code: error.code ?? 'EUNKNOWN',
              message: error.message,
              ...(error.port !== undefined ? { port: error.port } : {}),
              ...(error.which ? { which: error.which } : {}),
            },
            () => process.exit(exitCode),
          );
        },
      );
      return;
    case 'authResult':
      running?.answer(message.id, message.ok, message.identity, message.error);
      return;
    case 'revoke':
      if (typeof message.username === 'string') running?.revoke(message.username);
      return;
    case 'refreshConsoles':
      running?.refreshConsoles({
        ...(typeof message.username === 'string' ? { username: message.username } : {}),
        ...(typeof message.session === 'string' ? { session: message.session } : {}),
      });
      return;
    case 'recheckResult':
      running?.answerRecheck(message.id, message.identity, message.error);
      return;
    case 'stop':
      stop(0);
      return;
    default:
      return;
  }
});

// The parent went away (crashed or exited without stopping us): nobody is left to answer auth requests.
process.on('disconnect', () => stop(0));
process.on('SIGTERM', () => stop(0));
// Ctrl-C reaches the whole process group: the server decides when the broker stops, not the terminal.
process.on('SIGINT', () => {});
process.on('uncaughtException', (error) => {
  console.error('embedded MQTT broker crashed:', error);
  process.exit(1);
});
