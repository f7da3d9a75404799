/**
 * How per-user notifications reach every server instance (docs/realtime.md, scale-out): the instance that
 * produced one may not hold the user's socket. On PostgreSQL, instances share one database and talk through
 * LISTEN/NOTIFY on a dedicated connection; the embedded database serves one instance, which delivers in
 * process.
 */
import { userNotification } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { listenerConfigOf, listenOnPostgres } from '../../infra/database-listener.ts';
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
 * LISTEN/NOTIFY between instances. What is sent while the listening connection is lost is missed
 * (notifications are live-only, and sockets re-check their session anyway).
 */
export async function postgresChannel(options: PostgresChannelOptions): Promise<NotificationChannel> {
  const { db } = options;
  let handler: ((message: HubMessage) => void) | null = null;
  const listener = await listenOnPostgres(options.listener, {
    channel: NOTIFICATION_CHANNEL,
    name: 'notification',
    logger: options.logger,
    ...(options.reconnectMs === undefined ? {} : { reconnectMs: options.reconnectMs }),
    onNotification: (payload) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(payload);
      } catch {
        return;
      }
      const message = hubMessage.safeParse(parsed);
      if (message.success) handler?.(message.data);
    },
  });
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
    close: () => listener.close(),
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
