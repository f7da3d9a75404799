import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../src/infra/events/event-bus.ts';
import { EVENT_CHANNEL, openEventChannel } from '../src/infra/events/event-channel.ts';
import { SILENT_LOGGER } from '../src/lib/module-logger.ts';
import { databases, type TestDatabase } from './support/databases.ts';

declare module '../src/infra/events/event-bus.ts' {
  interface DomainEvents {
    'test.shared': { staffId: string };
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Two buses, each on its own LISTEN of the database (a dedicated connection each on PostgreSQL, as two
 * instances have), carry shared events to each other through NOTIFY.
 */
describe.each(databases)('shared domain events between instances ($kind)', ({ open }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('delivers a shared event published on one instance to the other, after commit', async () => {
    const here = new EventBus();
    const there = new EventBus();
    for (const bus of [here, there]) bus.declareShared('test.shared');
    const stops = [
      here.connect(await openEventChannel(database, SILENT_LOGGER)),
      there.connect(await openEventChannel(database, SILENT_LOGGER)),
    ];
    try {
      const heardHere: string[] = [];
      const heardThere: string[] = [];
      here.subscribe('test.shared', 'here', ({ staffId }) => void heardHere.push(staffId));
      there.subscribe('test.shared', 'there', ({ staffId }) => void heardThere.push(staffId));
      await expect(
        here.transaction(database.db, async (tx) => {
          here.publish('test.shared', { staffId: 'rolled-back' });
          await tx.execute(sql`select 1`);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      await here.transaction(database.db, async (tx) => {
        here.publish('test.shared', { staffId: 's-1' });
        await tx.execute(sql`select 1`);
      });
      expect(heardHere).toEqual(['s-1']);
      await until(() => heardThere.length > 0);
      // A notice from elsewhere that is no event of a bus is passed over.
      await database.db.execute(sql`select pg_notify(${EVENT_CHANNEL}, 'not an event')`);
      there.publish('test.shared', { staffId: 's-2' });
      await until(() => heardHere.length > 1);
      expect(heardHere).toEqual(['s-1', 's-2']);
      expect(heardThere).toEqual(['s-1', 's-2']);
    } finally {
      for (const stop of stops) await stop();
    }
  });
});
