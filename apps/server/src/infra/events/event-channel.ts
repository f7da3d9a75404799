/**
 * How shared domain events travel between server instances: PostgreSQL NOTIFY on one channel, heard by
 * every instance's dedicated LISTEN connection (database-listener.ts). The embedded engine serves one
 * instance, but its in-process LISTEN is used alike so that two buses on one database hear each other.
 * Events sent while an instance's listening connection is lost are missed by it: shared events announce
 * changes to look at again, never the only copy of data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import { listenOnDatabase } from '../database-listener.ts';

/** The PostgreSQL channel of shared domain events. */
export const EVENT_CHANNEL = 'uiot_domain_event';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes and more. */
const MAX_PAYLOAD_BYTES = 7_900;

export interface EventChannel {
  /** Sends to every instance listening (this one included). Rejects when it could not be sent. */
  send(message: string): Promise<void>;
  /** Sets the handler of messages from any instance. */
  receive(handler: (message: string) => void): void;
  close(): Promise<void>;
}

/** The event channel of a database (LISTEN on a dedicated connection on PostgreSQL, in process on PGlite). */
export async function openEventChannel(
  database: Pick<Database, 'db' | 'kind'>,
  logger: ModuleLogger,
  options: { reconnectMs?: number } = {},
): Promise<EventChannel> {
  let handler: ((message: string) => void) | null = null;
  const listener = await listenOnDatabase(database, {
    channel: EVENT_CHANNEL,
    name: 'domain event',
    logger,
    ...options,
    onNotification: (payload) => handler?.(payload),
  });
  return {
    async send(message) {
      const bytes = Buffer.byteLength(message);
      if (bytes > MAX_PAYLOAD_BYTES) throw new Error(`event of ${bytes} bytes is too large to share`);
      await database.db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${message})`);
    },
    receive(next) {
      handler = next;
    },
    close: () => listener.close(),
  };
}
