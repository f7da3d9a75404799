import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { releasable } from '../src/lib/test-support.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import { upsertRuntimeQuery, writtenRuntime } from '../src/modules/iot/ingest/ingest.repository.ts';
import type { RuntimeUpdate } from '../src/modules/iot/ingest/runtime-merge.ts';
import { deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import { NO_HINTS } from '../src/modules/iot/run-states.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';

/**
 * The statement ingest writes a batch's runtime data with: an UPDATE of the rows that exist and an INSERT
 * for devices without one, whose conflict arm makes the same change when another writer inserts the row
 * first (PostgreSQL with several writers).
 */
describe.each(databases)('runtime upsert ($kind)', (kind) => {
  let database: TestDatabase;
  let unitId: string;
  let typeId: string;

  beforeAll(async () => {
    database = await kind.open();
    unitId = await insertUnitRow(database.db);
    typeId = await insertDeviceTypeRow(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const newDevice = () => insertDeviceRow(database.db, { unitId, typeId, regist: true });
  const written = async (updates: RuntimeUpdate[]) => [
    ...writtenRuntime(rowsOf(await database.db.execute(upsertRuntimeQuery(updates, NO_HINTS)))).changed,
  ];
  const stored = async (deviceId: string) => {
    const [row] = await database.db.select().from(deviceRuntime).where(eq(deviceRuntime.deviceId, deviceId));
    return row;
  };

  /** One heartbeat of each device at `at` (ms), as a batch's runtime updates. */
  const heartbeats = (at: number, ids: readonly string[]): RuntimeUpdate[] =>
    ids.map((deviceId) => ({ deviceId, lastCollectTime: at, lastMessageId: `m${at}`, battery: 60 }));

  /**
   * Another writer's batch, written in a transaction that stays open until `release`; resolves once the
   * batch is written. `done` settles when that transaction has committed.
   */
  const openBatch = async (updates: RuntimeUpdate[]) => {
    const { promise: held, release } = releasable();
    const { promise: writtenNow, release: batchWritten } = releasable();
    const done = database.db.transaction(async (tx) => {
      await tx.execute(upsertRuntimeQuery(updates, NO_HINTS));
      batchWritten();
      await held;
    });
    await writtenNow;
    return { release, done };
  };

  it('inserts the row of a new device and updates an existing one in the same statement', async () => {
    const known = await newDevice();
    const fresh = await newDevice();
    const t = Date.UTC(2026, 10, 1, 8);
    expect(
      await written([{ deviceId: known, lastCollectTime: t, lastMessageId: 'k1', battery: 80 }]),
    ).toEqual([known]);
    const answered = await written([
      { deviceId: known, lastCollectTime: t + 1000, lastMessageId: 'k2', doorState: 'open' },
      { deviceId: fresh, lastCollectTime: t + 1000, lastMessageId: 'f1', lockState: 'closed', battery: 55 },
    ]);
    expect(answered.sort()).toEqual([known, fresh].sort());
    expect(await stored(known)).toMatchObject({
      battery: 80,
      doorState: 'open',
      doorOpenSince: new Date(t + 1000),
      lastMessageId: 'k2',
      online: true,
    });
    expect(await stored(fresh)).toMatchObject({ battery: 55, lockState: 'closed', lastMessageId: 'f1' });
  });

  it('changes nothing for a late message, and skips a device that does not exist', async () => {
    const id = await newDevice();
    const t = Date.UTC(2026, 10, 1, 9);
    await written([{ deviceId: id, lastCollectTime: t, lastMessageId: 'm2', battery: 70 }]);
    expect(
      await written([
        { deviceId: id, lastCollectTime: t - 1, lastMessageId: 'm1', battery: 10 },
        { deviceId: 'no-such-device', lastCollectTime: t, lastMessageId: 'x' },
      ]),
    ).toEqual([]);
    expect(await stored(id)).toMatchObject({ battery: 70, lastMessageId: 'm2' });
    expect(await stored('no-such-device')).toBeUndefined();
  });

  // The embedded engine's settings are the server's own (on PostgreSQL the planner's costs are the
  // operator's): with PostgreSQL's default page costs it read every stored row to change a batch's.
  it.skipIf(kind.kind !== 'pglite')(
    "changes a large fleet's rows through their key, without reading the whole table",
    async () => {
      const fleet = (
        await database.db
          .insert(device)
          .values(
            Array.from({ length: 10_000 }, (_, i) => ({
              name: `Fleet ${i}`,
              unitId,
              typeId,
              category: 'IoT',
              stationId: DEFAULT_STATION.id,
              regist: true,
            })),
          )
          .returning({ id: device.id })
      ).map((row) => row.id);
      const t = Date.UTC(2026, 10, 2, 8);
      expect(await written(heartbeats(t, fleet))).toHaveLength(fleet.length);
      await database.db.execute(sql`analyze device_runtime`);

      const reporting = fleet.slice(5000, 5150);
      const plan = rowsOf<{ 'QUERY PLAN': string }>(
        await database.db.execute(
          sql`explain (costs off) ${upsertRuntimeQuery(heartbeats(t + 1000, reporting), NO_HINTS)}`,
        ),
      )
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('device_runtime_pkey');
      expect(plan).not.toMatch(/Seq Scan on device_runtime/);
      expect((await written(heartbeats(t + 1000, reporting))).sort()).toEqual([...reporting].sort());
    },
  );

  it.skipIf(kind.kind === 'pglite')(
    "a late message takes no lock: it does not wait for another writer's open batch",
    async () => {
      const [one, two] = [await newDevice(), await newDevice()];
      const t = Date.UTC(2026, 10, 1, 11);
      await written(heartbeats(t, [one, two]));
      // The other writer's batch: newer for `one`, late for `two`; it stays open.
      const other = await openBatch([...heartbeats(t + 2000, [one]), ...heartbeats(t - 1000, [two])]);
      // This batch is late for `one` and newer for `two`: it must not wait on the row the other holds, nor
      // lock `two` for it (with a lock taken for `one` the two batches would wait on each other).
      let settled = false;
      const mine = written([...heartbeats(t - 1000, [one]), ...heartbeats(t + 2000, [two])]);
      void mine.then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const waited = !settled;
      other.release();
      await other.done;
      expect(await mine).toEqual([two]);
      expect(waited).toBe(false);
      expect(await stored(one)).toMatchObject({ lastMessageId: `m${t + 2000}` });
      expect(await stored(two)).toMatchObject({ lastMessageId: `m${t + 2000}` });
    },
  );

  it.skipIf(kind.kind === 'pglite')(
    'applies the later of two writers that insert a new device at once, whichever commits first',
    async () => {
      const t = Date.UTC(2026, 10, 1, 10);
      for (const [first, second] of [
        [t, t + 1000],
        [t + 1000, t],
      ] as const) {
        const id = await newDevice();
        const firstTx = await openBatch([
          { deviceId: id, lastCollectTime: first, lastMessageId: 'a', battery: 1 },
        ]);
        // The second writer finds no row yet (the first is not committed), inserts, and waits on the first.
        let settled = false;
        const secondWrite = written([
          { deviceId: id, lastCollectTime: second, lastMessageId: 'b', battery: 2 },
        ]);
        void secondWrite.then(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(settled).toBe(false);
        firstTx.release();
        await firstTx.done;
        const answered = await secondWrite;
        const later = second > first;
        expect(answered).toEqual(later ? [id] : []);
        expect(await stored(id)).toMatchObject(
          later ? { battery: 2, lastMessageId: 'b' } : { battery: 1, lastMessageId: 'a' },
        );
      }
    },
  );
});
