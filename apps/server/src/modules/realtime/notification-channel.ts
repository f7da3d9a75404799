/**
 * How per-user notifications reach every server instance (docs/realtime.md, scale-out): the instance that
 * produced one may not hold the user's socket. On PostgreSQL, instances share one database and talk through
 * LISTEN/NOTIFY on a dedicated connection; the embedded database serves one instance, which delivers in
 * process.
 */
import { userNotification } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';

/** What instances tell each other: a notification for a user, or that sessions of a user ended. */
export const hubMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('notify'),
    staffId: z.string(),
    time: z.string(),
    notification: userNotification,
  }),
  z.object({ type: z.literal('sessionsEnded'), staffId: z.string() }),
]);
export type HubMessage = z.infer<typeof hubMessage>;

export interface NotificationChannel {
  /** Sends to every instance, this one included. Rejects when it could not be sent. */
  send(message: HubMessage): Promise<void>;
  /** Sets the handler of messages from any instance (this one included). */
  receive(handler: (message: HubMessage) => void): void;
  close(): Promise<void>;
}

/** One instance: messages go straight to its own handler. */
export function inProcessChannel(): NotificationChannel {
  let handler: ((message: HubMessage) => void) | null = null;
  let closed = false;
  return {
    async send(message) {
      if (closed) return;
      // Delivered after the caller's turn, as a message from the database would be.
      queueMicrotask(() => handler?.(message));
    },
    receive(next) {
      handler = next;
    },
    async close() {
      closed = true;
    },
  };
}

/** The PostgreSQL channel every instance listens on. */
export const NOTIFICATION_CHANNEL = 'uiot_user_notification';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes and more. */
const MAX_PAYLOAD_BYTES = 7_900;
const MAX_RECONNECT_MS = 30_000;

/**
 * The connection settings of the node-postgres pool behind `db`, for a dedicated listening connection
 * (LISTEN holds its connection for good, so it does not come from the pool). Null on the embedded engine.
 */
export function listenerConfigOf(db: Db): pg.ClientConfig | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return null;
  const { max: _max, idleTimeoutMillis: _idle, ...config } = client.options;
  return config;
}

export interface PostgresChannelOptions {
  /** Where NOTIFY is sent from (the pool). */
  db: Db;
  /** The dedicated listening connection's settings. */
  listener: pg.ClientConfig;
  logger: ModuleLogger;
  /** First delay before listening again after the connection was lost; doubles up to 30 s (default 1 s). */
  reconnectMs?: number;
}

/**
 * LISTEN/NOTIFY between instances. A lost listening connection is opened again with growing delays; what
 * was sent meanwhile is missed (notifications are live-only, and sockets re-check their session anyway).
 */
export async function postgresChannel(options: PostgresChannelOptions): Promise<NotificationChannel> {
  const { db, logger } = options;
  const firstDelay = Math.max(10, options.reconnectMs ?? 1_000);
  let handler: ((message: HubMessage) => void) | null = null;
  let client: pg.Client | null = null;
  let closed = false;
  let delay = firstDelay;
  let retry: NodeJS.Timeout | null = null;
  let lostLogged = false;

  const onNotification = (note: pg.Notification) => {
    if (note.channel !== NOTIFICATION_CHANNEL || !note.payload) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(note.payload);
    } catch {
      return;
    }
    const message = hubMessage.safeParse(parsed);
    if (message.success) handler?.(message.data);
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
    const next = new pg.Client({
      ...options.listener,
      keepAlive: true,
      application_name: 'uiot-notifications',
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (client === next) client = null;
      next.removeAllListeners('notification');
      next.end().catch(() => undefined);
      if (closed) return;
      if (!lostLogged) {
        lostLogged = true;
        logger.warn(
          { error: error?.message ?? 'connection ended' },
          'notification listener lost its database connection; listening again',
        );
      }
      scheduleListen();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', onNotification);
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed) {
      lost = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = firstDelay;
    if (lostLogged) logger.info({}, 'notification listener listening again');
    lostLogged = false;
  };

  await listen();
  return {
    async send(message) {
      const payload = JSON.stringify(message);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        throw new Error(`notification of ${Buffer.byteLength(payload)} bytes is too large to send`);
      }
      await db.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${payload})`);
    },
    receive(next) {
      handler = next;
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

/** The channel for a database: LISTEN/NOTIFY on PostgreSQL, in process on the embedded engine. */
export async function openNotificationChannel(
  database: { db: Db; kind: 'pglite' | 'postgres' },
  logger: ModuleLogger,
): Promise<NotificationChannel> {
  if (database.kind !== 'postgres') return inProcessChannel();
  const listener = listenerConfigOf(database.db);
  if (!listener) throw new Error('the PostgreSQL connection settings cannot be read for LISTEN');
  return postgresChannel({ db: database.db, listener, logger });
}
