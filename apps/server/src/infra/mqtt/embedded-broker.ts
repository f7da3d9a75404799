/**
 * Supervisor of the embedded MQTT broker (ARCHITECTURE §1): forks `broker-process.ts`, waits until it
 * listens, answers its authentication questions through `authorize`, restarts it with back-off when it dies,
 * and stops it cleanly. The server then talks to it like any broker, through `bus-client.ts` with
 * `internalCredentials`.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type {
  BrokerAuthRequestMessage,
  BrokerAuthResultMessage,
  BrokerConfigMessage,
  BrokerErrorMessage,
  BrokerPortVariable,
  BrokerRecheckRequestMessage,
  BrokerRecheckResultMessage,
  BrokerToParentMessage,
  BrokerTransport,
  ConsoleScope,
  ParentToBrokerMessage,
} from './broker-ipc.ts';
import { type BrokerIdentity, parseBrokerIdentity } from './topic-acl.ts';

export type { BrokerTransport, ConsoleScope } from './broker-ipc.ts';
export type { BrokerIdentity } from './topic-acl.ts';

/** What the broker asks the server about a connecting client (never the server's own internal client). */
export interface BrokerAuthRequest {
  clientId: string;
  username?: string;
  password?: string;
  transport: BrokerTransport;
}

export interface EmbeddedBrokerOptions {
  /** Interface to listen on (both listeners); default: all interfaces. */
  host?: string;
  /** MQTT over TCP (MQTT_PORT). 0 picks a free port. */
  port: number;
  /** MQTT over WebSocket, path /mqtt (MQTT_WS_PORT). 0 picks a free port. */
  wsPort: number;
  /** Certificate and key (PEM, TLS_CERT and TLS_KEY): the WebSocket listener speaks WSS; TCP stays plain. */
  tls?: { cert: string; key: string };
  /**
   * Decides whether a device or browser may connect: resolve the identity, or null to refuse.
   * A rejection refuses the connection as "server unavailable" (CONNACK 3) and is not cached.
   * Answers are cached by the broker for `authCacheTtlMs` (per client id, username, password, transport).
   */
  authorize: (req: BrokerAuthRequest) => Promise<BrokerIdentity | null>;
  /**
   * Who a connected browser's session is now (after `refreshConsoles`): its identity, or null when it may
   * no longer connect (its connections are closed). Without it, a refresh closes the consoles it covers and
   * they sign in again.
   */
  recheckConsole?: (req: { session: string; username: string }) => Promise<BrokerIdentity | null>;
  logger: ModuleLogger;
  /** Concurrent connections over both listeners (default 20000). */
  maxConnections?: number;
  /** Largest MQTT packet accepted, in bytes (default 1 MiB). */
  maxPacketSize?: number;
  /** Deny a connection when `authorize` has not answered within this time (default 5000 ms). */
  authTimeoutMs?: number;
  /** How long an answer of `authorize` is reused (default 30000 ms; 0 disables the cache). */
  authCacheTtlMs?: number;
  /** Most cached answers (default 10000). */
  authCacheSize?: number;
  /** Most authentications waiting for `authorize` at once; beyond, connections are refused (default 1000). */
  maxPendingAuth?: number;
  /** Time allowed for the child to start listening (default 30000 ms). */
  startTimeoutMs?: number;
  /** Time allowed for a graceful stop before SIGKILL (default 5000 ms). */
  stopTimeoutMs?: number;
}

export interface EmbeddedBrokerRestart {
  pid: number;
  /** Restarts since start-up, this one included. */
  restarts: number;
}

export interface EmbeddedBroker {
  /** Credentials of the server's own client, generated for this start; never log them. */
  readonly internalCredentials: { username: string; password: string };
  /** Where the server's bus client connects: `mqtt://127.0.0.1:PORT`. */
  readonly url: string;
  /** The browsers' endpoint on this machine: `ws://127.0.0.1:WSPORT/mqtt` (`wss://` with `tls`). */
  readonly wsUrl: string;
  /** Ports actually listened on (as configured, or picked when 0 was given). */
  readonly port: number;
  readonly wsPort: number;
  /** Process id of the current broker child, undefined while it is down. */
  readonly pid: number | undefined;
  readonly restarts: number;
  /** Called each time the broker has been restarted and listens again; returns an unsubscribe function. */
  onRestart(listener: (info: EmbeddedBrokerRestart) => void): () => void;
  /**
   * Forgets cached authorisations of this username and disconnects its clients (call on logout, password
   * change, device credential change).
   */
  revoke(username: string): void;
  /**
   * The sessions of the scope changed (permissions, status, the session itself): cached answers about them
   * are forgotten and their connected browsers rechecked at once — they receive from then on only the kinds
   * the answer allows, or are disconnected.
   */
  refreshConsoles(scope: ConsoleScope): void;
  /** Stops the broker (SIGKILL after `stopTimeoutMs`); idempotent. */
  stop(): Promise<void>;
}

/** Start-up failure; `variable` and `port` are set when a listener could not be opened. */
export class BrokerStartError extends Error {
  readonly code: string;
  readonly variable: BrokerPortVariable | undefined;
  readonly port: number | undefined;

  constructor(message: string, code: string, variable?: BrokerPortVariable, port?: number) {
    super(message);
    this.name = 'BrokerStartError';
    this.code = code;
    this.variable = variable;
    this.port = port;
  }
}

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;
/** A child that ran this long before dying restarts at the initial back-off again. */
const STABLE_UPTIME_MS = 30_000;

const here = fileURLToPath(import.meta.url);
const BROKER_ENTRY = path.join(path.dirname(here), `broker-process${path.extname(here) || '.ts'}`);

/**
 * The child inherits the parent's Node flags (so `--import tsx` carries over), minus debugger flags whose
 * port would clash and watch-mode flags. When this module runs without tsx (e.g. under Vitest) tsx is added for the `.ts` child.
 */
function childExecArgv(): string[] {
  const argv: string[] = [];
  const inherited = process.execArgv;
  for (let i = 0; i < inherited.length; i++) {
    const arg = inherited[i]!;
    if (/^--(inspect|debug|watch)/.test(arg)) {
      // flags whose value may follow as a separate argument
      if (['--inspect-port', '--debug-port', '--watch-path'].includes(arg)) i++;
      continue;
    }
    argv.push(arg);
  }
  const hasTsx = [...argv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('tsx'));
  if (BROKER_ENTRY.endsWith('.ts') && !hasTsx) {
    const loader = createRequire(import.meta.url).resolve('tsx');
    argv.push('--import', pathToFileURL(loader).href);
  }
  return argv;
}

function startErrorFrom(message: BrokerErrorMessage): BrokerStartError {
  const { code, which, port } = message;
  if (which !== undefined && port !== undefined) {
    const hint = `set ${which} to a free port, or MQTT_URL to use an external broker`;
    switch (code) {
      case 'EADDRINUSE':
        return new BrokerStartError(`${which} ${port} is already in use (${hint})`, code, which, port);
      case 'EACCES':
        return new BrokerStartError(`${which} ${port}: permission denied (${hint})`, code, which, port);
      case 'EADDRNOTAVAIL':
        return new BrokerStartError(
          `${which} ${port}: address not available on this host`,
          code,
          which,
          port,
        );
      default:
        return new BrokerStartError(`${which} ${port}: ${message.message}`, code, which, port);
    }
  }
  return new BrokerStartError(`embedded MQTT broker failed to start: ${message.message}`, code);
}

function connectHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::' || host === 'localhost') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function checkPort(value: number, name: BrokerPortVariable): void {
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new BrokerStartError(`${name} must be a port number between 0 and 65535`, 'EINVAL', name, value);
  }
}

interface ChildHandle {
  process: ChildProcess;
  /** Settles when the child listens (or fails to). */
  started: Promise<void>;
  /** Settles when the child has exited. */
  exited: Promise<void>;
  hasExited: boolean;
  ready: boolean;
  readyAt: number;
}

class BrokerSupervisor implements EmbeddedBroker {
  readonly internalCredentials: { username: string; password: string };
  private readonly logger: ModuleLogger;
  private readonly config: BrokerConfigMessage;
  private readonly startTimeoutMs: number;
  private readonly stopTimeoutMs: number;
  private readonly restartListeners = new Set<(info: EmbeddedBrokerRestart) => void>();
  private current: ChildHandle | null = null;
  private backoffMs = INITIAL_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private stopPromise: Promise<void> | null = null;
  private restartCount = 0;

  constructor(private readonly options: EmbeddedBrokerOptions) {
    checkPort(options.port, 'MQTT_PORT');
    checkPort(options.wsPort, 'MQTT_WS_PORT');
    if (options.port !== 0 && options.port === options.wsPort) {
      throw new BrokerStartError(
        `MQTT_PORT and MQTT_WS_PORT must differ (both are ${options.port})`,
        'EINVAL',
        'MQTT_WS_PORT',
        options.wsPort,
      );
    }
    this.logger = options.logger;
    this.internalCredentials = Object.freeze({
      username: `uiot-internal-${randomBytes(6).toString('hex')}`,
      password: randomBytes(32).toString('base64url'),
    });
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
    this.config = {
      type: 'config',
      ...(options.host !== undefined ? { host: options.host } : {}),
      port: options.port,
      wsPort: options.wsPort,
      ...(options.tls ? { tls: { cert: options.tls.cert, key: options.tls.key } } : {}),
      internalUsername: this.internalCredentials.username,
      internalPassword: this.internalCredentials.password,
      maxConnections: options.maxConnections ?? 20_000,
      maxPacketSize: options.maxPacketSize ?? 1024 * 1024,
      authTimeoutMs: options.authTimeoutMs ?? 5_000,
      authCacheTtlMs: options.authCacheTtlMs ?? 30_000,
      authCacheSize: options.authCacheSize ?? 10_000,
      maxPendingAuth: options.maxPendingAuth ?? 1_000,
    };
  }

  get port(): number {
    return this.config.port;
  }

  get wsPort(): number {
    return this.config.wsPort;
  }

  get url(): string {
    return `mqtt://${connectHost(this.options.host)}:${this.config.port}`;
  }

  get wsUrl(): string {
    const scheme = this.options.tls ? 'wss' : 'ws';
    return `${scheme}://${connectHost(this.options.host)}:${this.config.wsPort}/mqtt`;
  }

  get pid(): number | undefined {
    const child = this.current;
    return child && !child.hasExited ? child.process.pid : undefined;
  }

  get restarts(): number {
    return this.restartCount;
  }

  async start(): Promise<void> {
    const handle = this.spawn();
    try {
      await handle.started;
    } catch (error) {
      this.stopping = true;
      await this.terminate(handle);
      throw error;
    }
  }

  onRestart(listener: (info: EmbeddedBrokerRestart) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  revoke(username: string): void {
    this.send(this.current, { type: 'revoke', username });
  }

  refreshConsoles(scope: ConsoleScope): void {
    this.send(this.current, { type: 'refreshConsoles', ...scope });
  }

  stop(): Promise<void> {
    this.stopPromise ??= (async () => {
      this.stopping = true;
      if (this.restartTimer) clearTimeout(this.restartTimer);
      this.restartTimer = null;
      const handle = this.current;
      if (handle) await this.terminate(handle);
      this.logger.info({}, 'embedded MQTT broker stopped');
    })();
    return this.stopPromise;
  }

  /** Asks the child to stop, SIGKILLs it after the timeout, resolves once it has exited. */
  private async terminate(handle: ChildHandle): Promise<void> {
    if (handle.hasExited) return;
    if (handle.process.connected) this.send(handle, { type: 'stop' });
    else handle.process.kill('SIGTERM');
    const killTimer = setTimeout(() => {
      this.logger.warn({ pid: handle.process.pid }, 'embedded MQTT broker did not stop in time; killing it');
      handle.process.kill('SIGKILL');
    }, this.stopTimeoutMs);
    await handle.exited;
    clearTimeout(killTimer);
  }

  private send(handle: ChildHandle | null, message: ParentToBrokerMessage): void {
    if (!handle || handle.hasExited || !handle.process.connected) return;
    handle.process.send(message, (error) => {
      if (error && !handle.hasExited) {
        this.logger.warn(
          { error: error.message, type: message.type },
          'cannot reach the embedded MQTT broker',
        );
      }
    });
  }

  private spawn(): ChildHandle {
    const child = fork(BROKER_ENTRY, [], {
      execArgv: childExecArgv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    let settle!: (error?: Error) => void;
    let markExited!: () => void;
    let startTimer: NodeJS.Timeout | undefined;
    const handle: ChildHandle = {
      process: child,
      started: new Promise<void>((resolve, reject) => {
        let settled = false;
        settle = (error) => {
          if (settled) return;
          settled = true;
          clearTimeout(startTimer);
          if (error) reject(error);
          else resolve();
        };
      }),
      exited: new Promise<void>((resolve) => {
        markExited = resolve;
      }),
      hasExited: false,
      ready: false,
      readyAt: 0,
    };
    handle.started.catch(() => {}); // observed by the caller; avoid an unhandled rejection in the meantime
    this.current = handle;

    startTimer = setTimeout(() => {
      settle(
        new BrokerStartError(
          `embedded MQTT broker did not start within ${this.startTimeoutMs} ms`,
          'ETIMEDOUT',
        ),
      );
      child.kill('SIGKILL');
    }, this.startTimeoutMs);

    child.on('message', (raw: unknown) => {
      const message = raw as BrokerToParentMessage;
      switch (message?.type) {
        case 'ready':
          if (handle.ready) return;
          handle.ready = true;
          handle.readyAt = Date.now();
          // Keep the ports actually bound, so that a restart reopens the same ones even when 0 was configured.
          this.config.port = message.port;
          this.config.wsPort = message.wsPort;
          settle();
          return;
        case 'error':
          settle(startErrorFrom(message));
          return;
        case 'auth':
          void this.answerAuth(handle, message);
          return;
        case 'recheck':
          void this.answerRecheck(handle, message);
          return;
        case 'log':
          this.forwardLog(child.pid, message.level, message.msg, message.data);
          return;
        default:
          return;
      }
    });
    child.on('error', (error) => {
      this.logger.error({ error: error.message }, 'embedded MQTT broker process error');
      settle(new BrokerStartError(`embedded MQTT broker could not be started: ${error.message}`, 'ESPAWN'));
    });
    child.once('exit', (code, signal) => {
      handle.hasExited = true;
      settle(
        new BrokerStartError(
          `embedded MQTT broker exited during start-up (${signal ?? `code ${code}`})`,
          'EEXIT',
        ),
      );
      markExited();
      this.onExit(handle, code, signal);
    });

    this.send(handle, this.config);
    return handle;
  }

  private onExit(handle: ChildHandle, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.current !== handle) return;
    this.current = null;
    // Failed start-ups are handled by whoever awaited `started`; a stop was asked for.
    if (this.stopping || !handle.ready) return;
    if (Date.now() - handle.readyAt >= STABLE_UPTIME_MS) this.backoffMs = INITIAL_BACKOFF_MS;
    this.logger.warn(
      { pid: handle.process.pid, code, signal, restartInMs: this.backoffMs },
      'embedded MQTT broker exited unexpectedly; restarting it',
    );
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.stopping || this.restartTimer) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.restart();
    }, delay);
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    const handle = this.spawn();
    try {
      await handle.started;
    } catch (error) {
      if (this.stopping) return;
      this.logger.error(
        { error: errorMessage(error), retryInMs: this.backoffMs },
        'embedded MQTT broker failed to restart',
      );
      await this.terminate(handle);
      if (this.current === handle) this.current = null;
      this.scheduleRestart();
      return;
    }
    this.restartCount++;
    const info = { pid: handle.process.pid ?? -1, restarts: this.restartCount };
    this.logger.info(info, 'embedded MQTT broker restarted');
    for (const listener of this.restartListeners) {
      try {
        listener(info);
      } catch (error) {
        this.logger.error({ error: errorMessage(error) }, 'embedded MQTT broker restart listener failed');
      }
    }
  }

  private async answerAuth(handle: ChildHandle, request: BrokerAuthRequestMessage): Promise<void> {
    let reply: BrokerAuthResultMessage;
    try {
      const identity = await this.options.authorize({
        clientId: String(request.clientId),
        transport: request.transport === 'ws' ? 'ws' : 'tcp',
        ...(typeof request.username === 'string' ? { username: request.username } : {}),
        ...(typeof request.password === 'string' ? { password: request.password } : {}),
      });
      const parsed = identity == null ? null : parseBrokerIdentity(identity);
      if (identity != null && !parsed) {
        this.logger.error(
          { clientId: request.clientId },
          'authorize returned an invalid broker identity; connection refused',
        );
      }
      reply = { type: 'authResult', id: request.id, ok: parsed !== null, identity: parsed };
    } catch (error) {
      this.logger.error(
        { clientId: request.clientId, error: errorMessage(error) },
        'broker authorisation failed; connection refused',
      );
      reply = { type: 'authResult', id: request.id, ok: false, identity: null, error: true };
    }
    this.send(handle, reply);
  }

  private async answerRecheck(handle: ChildHandle, request: BrokerRecheckRequestMessage): Promise<void> {
    let reply: BrokerRecheckResultMessage;
    try {
      const identity = this.options.recheckConsole
        ? await this.options.recheckConsole({
            session: String(request.session),
            username: String(request.username),
          })
        : null;
      reply = { type: 'recheckResult', id: request.id, identity: identity && parseBrokerIdentity(identity) };
    } catch (error) {
      this.logger.error({ error: errorMessage(error) }, 'console recheck failed; its connections are closed');
      reply = { type: 'recheckResult', id: request.id, identity: null, error: true };
    }
    this.send(handle, reply);
  }

  private forwardLog(pid: number | undefined, level: unknown, msg: unknown, data: unknown): void {
    const method = level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info';
    const fields = typeof data === 'object' && data !== null ? data : {};
    this.logger[method]({ ...fields, pid }, `embedded MQTT broker: ${String(msg)}`);
  }
}

/**
 * Starts the embedded broker and resolves once both listeners are open. Rejects with a `BrokerStartError`
 * naming the variable (e.g. "MQTT_PORT 1883 is already in use ...") when a port cannot be opened; no process
 * is left behind then.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const supervisor = new BrokerSupervisor(options);
  await supervisor.start();
  return supervisor;
}
