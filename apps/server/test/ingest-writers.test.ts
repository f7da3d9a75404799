import { decodeNativeReport, encodeNativeReport, type InboundMessage } from '@uiot/device-protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openPostgres } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { listenerConfigOf } from '../src/infra/database-listener.ts';
import { SILENT_LOGGER } from '../src/lib/module-logger.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { freePorts } from '../src/lib/test-support.ts';
import { IngestPipeline } from '../src/modules/iot/ingest/ingest-pipeline.ts';
import { SoleWriterLease } from '../src/modules/iot/ingest/sole-writer.ts';
import { ensureBuiltInAccounts } from '../src/modules/org/admin-account.ts';
import { openOwnPostgres, type TestDatabase } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';

const STATION = DEFAULT_STATION.id;
const adminUrl = process.env.TEST_DATABASE_URL?.trim();

const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

let serial = 0;
function report(code: string, receivedAt: number, lock: 'open' | 'closed'): InboundMessage {
  serial++;
  const raw = encodeNativeReport({ messageId: `w-${serial}`, reportedAt: receivedAt, event: 'heartbeat' });
  const decoded = decodeNativeReport(raw);
  if (!decoded.ok) throw new Error('test report does not decode');
  return {
    protocol: 'mqtt',
    address: { by: 'code', stationId: STATION, code },
    message: { ...decoded.value, kind: 'report', lock } as InboundMessage['message'],
    raw,
    receivedAt,
  };
}

/** An instance's pipeline, its batches fenced by `lease`. */
function pipelineOf(db: Db, lease: SoleWriterLease): IngestPipeline {
  return new IngestPipeline(db, {
    logger: SILENT_LOGGER,
    repeatIntervalMs: 60_000,
    fence: lease.fence,
    writers: 3,
    retryDelayMs: 10,
  });
}

/** A server instance's ingest: its own pool, pipeline and lease, as `startSystem` joins them. */
async function instance(db: Db, wantsSole = true) {
  const lease = new SoleWriterLease({
    connection: listenerConfigOf(db)!,
    db,
    logger: SILENT_LOGGER,
    wantsSole,
    checkMs: 40,
    askMs: 20,
  });
  const pipeline = pipelineOf(db, lease);
  const stop = lease.start(pipeline);
  await until(() => lease.present);
  return {
    lease,
    pipeline,
    async close() {
      await pipeline.close();
      await stop();
    },
  };
}

/**
 * Several server instances ingesting into one PostgreSQL database: a report repeating its lock's last write
 * is left unwritten only by an instance that is alone, and never behind another instance's back.
 */
describe.skipIf(!adminUrl)('the one writer of ingest among instances (postgres)', () => {
  let database: TestDatabase;
  /** A second pool on the same database: another instance's. */
  let other: Database;

  beforeAll(async () => {
    database = await openOwnPostgres(adminUrl!, 'uiot_t');
    other = await openPostgres(listenerConfigOf(database.db)!.connectionString!, 5);
    await ensureBuiltInAccounts(database.db, 'Writers-Test-2026');
    const unitId = await insertUnitRow(database.db);
    const typeId = await insertDeviceTypeRow(database.db);
    for (const code of ['W1', 'W2', 'W3']) {
      await insertDeviceRow(database.db, { unitId, typeId, code, regist: true });
    }
  });

  afterAll(async () => {
    await other?.close();
    await database?.close();
  });

  async function runtimeOf(code: string) {
    const [row] = rowsOf<{ t: number; lock_state: string | null }>(
      await database.db.execute(sql`
        select (extract(epoch from r.last_collect_time) * 1000)::float8 as t, r.lock_state
        from device_runtime r join device d on d.id = r.device_id where d.code = ${code}`),
    );
    return { t: Number(row?.t), lock: row?.lock_state ?? null };
  }

  /** A report and its repeat through the one writer's pipeline: the row keeps the first one's time. */
  async function reportTwice(pipeline: IngestPipeline, code: string, t0: number) {
    expect(await pipeline.submit(report(code, t0, 'closed'))).toBe('stored');
    expect(await pipeline.submit(report(code, t0 + 1_000, 'closed'))).toBe('stored');
    expect(await runtimeOf(code)).toEqual({ t: t0, lock: 'closed' });
  }

  it('leaves repeats unwritten only while alone, and writes their times before another instance gets in', async () => {
    const a = await instance(database.db);
    let b: Awaited<ReturnType<typeof instance>> | null = null;
    try {
      await until(() => a.lease.sole);
      const t0 = Date.now() - 60_000;
      await reportTwice(a.pipeline, 'W1', t0);

      // The second instance is let in only once the first stepped down and wrote its repeat's time.
      b = await instance(other.db);
      expect(a.lease.sole).toBe(false);
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 1_000, lock: 'closed' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([a.lease.sole, b.lease.sole]).toEqual([false, false]);

      // The lock opens, reported through the second instance, and closes again through the first: the first
      // last wrote "closed", but it is no longer alone, so that is no repeat.
      expect(await b.pipeline.submit(report('W1', t0 + 2_000, 'open'))).toBe('stored');
      expect(await a.pipeline.submit(report('W1', t0 + 3_000, 'closed'))).toBe('stored');
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 3_000, lock: 'closed' });
      expect(await a.pipeline.submit(report('W1', t0 + 4_000, 'closed'))).toBe('stored');
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 4_000, lock: 'closed' });

      // Alone again, it compares only with what it writes from then on.
      await b.close();
      b = null;
      await until(() => a.lease.sole);
      expect(await a.pipeline.submit(report('W1', t0 + 5_000, 'closed'))).toBe('stored');
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 5_000, lock: 'closed' });
      expect(await a.pipeline.submit(report('W1', t0 + 6_000, 'closed'))).toBe('stored');
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 5_000, lock: 'closed' });
    } finally {
      await b?.close();
      await a.close();
    }
    expect(await runtimeOf('W1')).toMatchObject({ lock: 'closed' });
    expect((await runtimeOf('W1')).t).toBeGreaterThan(Date.now() - 60_000 + 5_000);
  });

  it('goes on writing while it becomes the one writer, refusing none of its own batches', async () => {
    const a = await instance(database.db);
    try {
      const t0 = Date.now() - 50_000;
      const outcomes: Array<Promise<string>> = [];
      for (let i = 0; i < 200; i++) {
        outcomes.push(a.pipeline.submit(report(`W${1 + (i % 3)}`, t0 + i, i % 2 ? 'open' : 'closed')));
        if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(new Set(await Promise.all(outcomes))).toEqual(new Set(['stored']));
      await until(() => a.lease.sole);
      expect(a.pipeline.snapshot().failedBatches).toBe(0);
    } finally {
      await a.close();
    }
  });

  it('starts without waiting for its lease, which joins in the background, and stops all the same', async () => {
    const [closed] = await freePorts(1);
    const lease = new SoleWriterLease({
      connection: {
        ...listenerConfigOf(database.db)!,
        connectionString: undefined,
        host: '127.0.0.1',
        port: closed,
      },
      db: database.db,
      logger: SILENT_LOGGER,
      wantsSole: true,
      checkMs: 40,
    });
    const stop = lease.start(pipelineOf(database.db, lease));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([lease.present, lease.sole]).toEqual([false, false]);
    await stop();
  });

  it('an instance that does not leave repeats unwritten keeps the others from doing so', async () => {
    const a = await instance(database.db, false);
    const b = await instance(other.db);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([a.lease.sole, b.lease.sole]).toEqual([false, false]);
      const t0 = Date.now() - 30_000;
      await b.pipeline.submit(report('W2', t0, 'closed'));
      await b.pipeline.submit(report('W2', t0 + 1_000, 'closed'));
      expect(await runtimeOf('W2')).toEqual({ t: t0 + 1_000, lock: 'closed' });
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('refuses the batches of an instance that lost its lease while another is the one writer, which steps down', async () => {
    const a = await instance(database.db);
    // An instance whose lease connection is gone: it is not present, and its batches are fenced.
    const lost = new SoleWriterLease({
      connection: listenerConfigOf(other.db)!,
      db: other.db,
      logger: SILENT_LOGGER,
      wantsSole: true,
    });
    const b = pipelineOf(other.db, lost);
    try {
      await until(() => a.lease.sole);
      const t0 = Date.now() - 20_000;
      await reportTwice(a.pipeline, 'W3', t0);
      // Its report waits until the one writer has stepped down (and written its repeat's time).
      expect(await b.submit(report('W3', t0 + 2_000, 'open'))).toBe('stored');
      expect(b.snapshot().failedBatches).toBeGreaterThan(0);
      expect(await runtimeOf('W3')).toEqual({ t: t0 + 2_000, lock: 'open' });
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('stops leaving repeats unwritten at once when its lease connection is lost, and joins again', async () => {
    const a = await instance(database.db);
    try {
      await until(() => a.lease.sole);
      const t0 = Date.now() - 10_000;
      await reportTwice(a.pipeline, 'W1', t0);
      await database.db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'uiot-ingest-writers' and datname = current_database()`);
      await until(() => !a.lease.sole);
      await until(() => a.lease.sole);
      // Its repeat's time was written on the way.
      expect(await runtimeOf('W1')).toEqual({ t: t0 + 1_000, lock: 'closed' });
    } finally {
      await a.close();
    }
  });
});
