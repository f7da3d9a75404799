/**
 * PostgreSQL LISTEN for the server's channels between instances (per-user notifications, session changes).
 * LISTEN holds its connection for good, so each listener has a dedicated connection besides the pool, opened
 * again with growing delays when it is lost; what is sent meanwhile is missed, which `onListening(false)`
 * tells. On the embedded engine (one instance) the engine itself delivers notifications in process.
 */
import type { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import type { ModuleLogger } from '../lib/module-logger.ts';

const MAX_RECONNECT_MS = 30_000;

/** The underlying client of a drizzle database: a node-postgres pool or a PGlite instance. */
function clientOf(db: Db): unknown {
  return (db as unknown as { $client?: unknown }).$client;
}

/**
 * The connection settings of the node-postgres pool behind `db`, for a dedicated listening connection
 * (LISTEN holds its connection for good, so it does not come from the pool). Null on the embedded engine.
 */
export function listenerConfigOf(db: Db): pg.ClientConfig | null {
  const client = clientOf(db);
  if (!(client instanceof pg.Pool)) return null;
  const { max: _max, idleTimeoutMillis: _idle, ...config } = client.options;
  return config;
}

export interface DatabaseListener {
  /** Whether notifications are being received; while false, some may be missed. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  channel: string;
  onNotification(payload: string): void;
  /**
   * Called with false when the listening connection is lost (notifications sent from then on are missed)
   * and with true once it listens again.
   */
  onListening?(listening: boolean): void;
  /** Names the listener in the log and, as `uiot-<name>`, in pg_stat_activity. */
  name: string;
  logger: ModuleLogger;
  /** First delay before listening again after the connection was lost; doubles up to 30 s (default 1 s). */
  reconnectMs?: number;
}

/** LISTEN on a dedicated connection, opened again with growing delays whenever it is lost. */
export async function listenOnPostgres(
  config: pg.ClientConfig,
  options: ListenOptions,
): Promise<DatabaseListener> {
  const { channel, logger } = options;
  const firstDelay = Math.max(10, options.reconnectMs ?? 1_000);
  let client: pg.Client | null = null;
  let closed = false;
  let delay = firstDelay;
  let retry: NodeJS.Timeout | null = null;
  let lostLogged = false;

  const onNotification = (note: pg.Notification) => {
    if (note.channel === channel && note.payload) options.onNotification(note.payload);
  };

  const scheduleListen = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, MAX_RECONNECT_MS);
  };

  const listen = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({ ...config, keepAlive: true, application_name: `uiot-${options.name}` });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      const wasListening = client === next;
      if (wasListening) client = null;
      next.removeAllListeners('notification');
      next.end().catch(() => undefined);
      if (closed) return;
      if (wasListening) options.onListening?.(false);
      if (!lostLogged) {
        lostLogged = true;
        logger.warn(
          { error: error?.message ?? 'connection ended' },
          `${options.name} listener lost its database connection; listening again`,
        );
      }
      scheduleListen();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', onNotification);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed || lost) {
      lost = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = firstDelay;
    if (lostLogged) logger.info({}, `${options.name} listener listening again`);
    lostLogged = false;
    options.onListening?.(true);
  };

  await listen();
  return {
    get listening() {
      return client !== null;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => undefined);
      }
    },
  };
}

/**
 * What the connections of the pool behind `db` hear on `channel` (they listen to the schema's trigger channel
 * from their start, see db/client.ts): a write of this process is heard before it returns. Returns the stop.
 */
export function listenOnPoolConnections(
  db: Db,
  channel: string,
  onNotification: (payload: string) => void,
): () => void {
  const pool = clientOf(db);
  if (!(pool instanceof pg.Pool)) throw new Error('listenOnPoolConnections needs a PostgreSQL pool');
  const events = pool as EventEmitter;
  const handler = (note: pg.Notification) => {
    if (note.channel === channel && note.payload) onNotification(note.payload);
  };
  events.on('notification', handler);
  return () => events.off('notification', handler);
}

/** LISTEN on the embedded engine: notifications of a commit arrive before the committing query returns. */
export async function listenOnPglite(
  db: Db,
  channel: string,
  onNotification: (payload: string) => void,
): Promise<() => Promise<void>> {
  const client = clientOf(db) as PGlite | undefined;
  if (!client || typeof client.listen !== 'function')
    throw new Error('listenOnPglite needs a PGlite database');
  return client.listen(channel, onNotification);
}

/**
 * LISTEN on whichever engine `database` is: in process on the embedded engine (listening at once), on a
 * dedicated connection on PostgreSQL. With `poolConnections`, the pool's connections are heard too (only
 * for the channels they listen to from their start, see db/client.ts), so that a write of this process is
 * heard before it returns.
 */
export async function listenOnDatabase(
  database: { db: Db; kind: 'pglite' | 'postgres' },
  options: ListenOptions & { poolConnections?: boolean },
): Promise<DatabaseListener> {
  if (database.kind === 'pglite') {
    const unlisten = await listenOnPglite(database.db, options.channel, options.onNotification);
    options.onListening?.(true);
    let closed = false;
    return {
      get listening() {
        return !closed;
      },
      async close() {
        closed = true;
        await unlisten();
      },
    };
  }
  const config = listenerConfigOf(database.db);
  if (!config) throw new Error('the PostgreSQL connection settings cannot be read for LISTEN');
  const stopPool = options.poolConnections
    ? listenOnPoolConnections(database.db, options.channel, options.onNotification)
    : () => {};
  const listener = await listenOnPostgres(config, options);
  return {
    get listening() {
      return listener.listening;
    },
    async close() {
      stopPool();
      await listener.close();
    },
  };
}
