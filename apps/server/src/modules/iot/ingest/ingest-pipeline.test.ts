import { decodeNativeReport, encodeNativeReport, type InboundMessage } from '@uiot/device-protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openPglite } from '../../../db/client.ts';
import { EventBus } from '../../../infra/events/event-bus.ts';
import { SILENT_LOGGER } from '../../../lib/module-logger.ts';
import { DEFAULT_STATION } from '../../../lib/station.ts';
import { releasable } from '../../../lib/test-support.ts';
import { ensureBuiltInAccounts } from '../../org/admin-account.ts';
import { NO_HINTS } from '../run-states.ts';
import {
  IngestClosedError,
  type IngestCommit,
  type IngestOutcome,
  IngestPipeline,
} from './ingest-pipeline.ts';

const STATION = DEFAULT_STATION.id;

/**
 * The database with every transaction a batch may be written in going through `write`: drizzle's
 * transactions and the embedded database thread's batches.
 */
function intercepted(db: Db, write: (run: () => Promise<unknown>) => Promise<unknown>): Db {
  const wrap = <T extends object>(object: T, method: string): T =>
    new Proxy(object, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property === method && typeof value === 'function') {
          return (...args: unknown[]) => write(() => value.apply(target, args));
        }
        if (property === '$client' && value && typeof value === 'object') return wrap(value, 'batch');
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return wrap(db, 'transaction');
}

/** A database whose transactions wait at a gate while it is closed: a slow commit, on demand. */
function gatedDb(db: Db) {
  let open: Promise<void> = Promise.resolve();
  let release = () => {};
  let started = 0;
  const gated = intercepted(db, async (run) => {
    started++;
    await open;
    return run();
  });
  return {
    db: gated,
    close() {
      ({ promise: open, release } = releasable());
    },
    open() {
      release();
      open = Promise.resolve();
    },
    get started() {
      return started;
    },
  };
}

let serial = 0;
function report(code: string): InboundMessage {
  serial++;
  const raw = encodeNativeReport({ messageId: `m-${serial}`, reportedAt: Date.now(), event: 'heartbeat' });
  const decoded = decodeNativeReport(raw);
  if (!decoded.ok) throw new Error('test report does not decode');
  return {
    protocol: 'mqtt',
    address: { by: 'code', stationId: STATION, code },
    message: decoded.value,
    raw,
    receivedAt: Date.now(),
  };
}

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

describe('IngestPipeline batching', () => {
  let database: Database;
  const codes = ['P1', 'P2', 'P3'];

  beforeAll(async () => {
    database = await openPglite(null);
    await database.migrate();
    await ensureBuiltInAccounts(database.db, 'Pipeline-Test-2026');
    await database.db.execute(sql`
      insert into operation_unit (id, name, station_id) values ('pu', 'Pipeline unit', ${STATION})`);
    await database.db.execute(sql`
      insert into device_type (id, name, code, category, report_interval, heartbeat_interval)
      values ('pt', 'Pipeline type', 'PT', 'IoT', 3600, 300)`);
    for (const code of [...codes, 'P4']) {
      await database.db.execute(sql`
        insert into device (name, code, unit_id, type_id, category, station_id, regist)
        values (${code}, ${code}, 'pu', 'pt', 'IoT', ${STATION}, true)`);
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  async function historyRows(): Promise<number> {
    const result = await database.db.execute(sql`select count(*)::int as n from device_history`);
    return Number((result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n);
  }

  it('gathers the messages that arrive during a commit into one batch behind it', async () => {
    const gate = gatedDb(database.db);
    const pipeline = new IngestPipeline(gate.db, {
      logger: SILENT_LOGGER,
      writers: 3,
      maxBatch: 100,
      parallelBatch: 25,
      maxWaitMs: 60_000,
    });
    const before = await historyRows();
    gate.close();
    const first = pipeline.submit(report('P1'));
    await until(() => gate.started === 1);
    // Ten more while the first batch waits at the gate: below `parallelBatch`, so no second writer starts.
    const behind: Array<Promise<IngestOutcome>> = [];
    for (let i = 0; i < 10; i++) behind.push(pipeline.submit(report(codes[i % 3]!)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gate.started).toBe(1);
    expect(pipeline.pending).toBe(11);
    gate.open();
    expect(await first).toBe('stored');
    expect(await Promise.all(behind)).toEqual(new Array(10).fill('stored'));
    expect(pipeline.snapshot().batches).toBe(2);
    expect(await historyRows()).toBe(before + 11);
    await pipeline.close();
  });

  it('finding 3: refuses a message holding NUL as invalid, and stores the batch it would have joined', async () => {
    const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, maxDelayMs: 50 });
    const before = await historyRows();
    const withNul = (code: string, change: (m: InboundMessage) => InboundMessage) => change(report(code));
    const bad = [
      withNul('P1', (m) => ({ ...m, message: { ...m.message, props: { note: 'a\u0000b' } } })),
      withNul('P2', (m) => ({ ...m, message: { ...m.message, props: { 'k\u0000': 1 } } })),
      withNul('P3', (m) => ({ ...m, message: { ...m.message, messageId: 'id\u0000' } })),
      withNul('P1', (m) => ({
        ...m,
        message: {
          kind: 'commandResult',
          messageId: 'r-nul',
          commandId: 'c',
          outcome: 'Failure',
          detail: '\u0000',
        },
      })),
      withNul('P2', (m) => ({ ...m, raw: '{"id":"x"}\u0000' })),
      withNul('P3', (m) => ({ ...m, address: { by: 'code', stationId: STATION, code: 'P3\u0000' } })),
    ];
    // All submitted at once: without the refusal they would share one batch with the good ones.
    const outcomes = await Promise.all(
      [...bad, ...codes.map((code) => report(code))].map((m) => pipeline.submit(m)),
    );
    expect(outcomes).toEqual([...bad.map(() => 'invalid'), 'stored', 'stored', 'stored']);
    expect(pipeline.snapshot()).toMatchObject({ failedBatches: 0, stored: 3 });
    expect(pipeline.snapshot().rejected.invalid).toBe(bad.length);
    expect(await historyRows()).toBe(before + 3);
    await pipeline.close();
  });

  it('writes a batch holding a redelivered message step by step: only the new one changes runtime data', async () => {
    const gate = gatedDb(database.db);
    const pipeline = new IngestPipeline(gate.db, { logger: SILENT_LOGGER, maxWaitMs: 60_000 });
    const locked = (code: string, lock: 'open' | 'closed'): InboundMessage => {
      const message = report(code);
      return {
        ...message,
        message: { ...message.message, kind: 'report', lock } as InboundMessage['message'],
      };
    };
    const opened = locked('P2', 'open');
    expect(await pipeline.submit(opened)).toBe('stored');
    expect(await pipeline.submit(locked('P2', 'closed'))).toBe('stored');
    const before = await historyRows();
    const started = gate.started;
    gate.close();
    const holder = pipeline.submit(report('P1'));
    await until(() => gate.started === started + 1);
    // Behind the held batch: the first report again (a broker's redelivery) and a new one.
    const again = pipeline.submit({ ...opened, receivedAt: Date.now() });
    const fresh = pipeline.submit(report('P3'));
    gate.open();
    expect(await Promise.all([holder, again, fresh])).toEqual(['stored', 'duplicate', 'stored']);
    expect(await historyRows()).toBe(before + 2);
    const result = await database.db.execute(sql`
      select r.lock_state from device_runtime r join device d on d.id = r.device_id where d.code = 'P2'`);
    expect((result as unknown as { rows: Array<{ lock_state: string }> }).rows[0]?.lock_state).toBe('closed');
    await pipeline.close();
  });

  it('announces the opening and the PIN use of a late message, which changes no runtime data', async () => {
    const events = new EventBus();
    const commits: IngestCommit[] = [];
    events.subscribe('report.stored', 'test', (commit) => {
      commits.push(commit);
    });
    const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, events });
    const withEvent = (event: 'lockChanged' | 'pinUsed', receivedAt: number): InboundMessage => {
      const message = report('P3');
      const props = event === 'pinUsed' ? { pinRef: '01-7' } : undefined;
      return {
        ...message,
        message: {
          ...message.message,
          kind: 'report',
          event,
          lock: 'open',
          ...(props ? { props } : {}),
        } as InboundMessage['message'],
        receivedAt,
      };
    };
    // Another writer (or instance) already stored a newer message of the lock.
    expect(await pipeline.submit({ ...report('P3'), receivedAt: Date.now() + 60_000 })).toBe('stored');
    const opening = withEvent('lockChanged', Date.now());
    const pinUse = withEvent('pinUsed', Date.now());
    expect(await Promise.all([pipeline.submit(opening), pipeline.submit(pinUse)])).toEqual([
      'stored',
      'stored',
    ]);
    await pipeline.close();
    const late = commits.slice(1);
    expect(late.flatMap((c) => c.runtime)).toEqual([]);
    const reported = late.flatMap((c) => c.reported);
    expect(reported.flatMap((r) => r.unlocks ?? []).map((u) => u.messageId)).toEqual([
      opening.message.messageId,
    ]);
    expect(reported.flatMap((r) => r.pinReports ?? [])).toMatchObject([
      { messageId: pinUse.message.messageId, event: 'pinUsed', ref: '01-7' },
    ]);
    expect(reported.every((r) => r.stationId === STATION)).toBe(true);
  });

  it("counts a late message's damage report into the device's damage value", async () => {
    const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER });
    const damageCount = async () => {
      const result = await database.db.execute(sql`
        select r.damage_count from device_runtime r join device d on d.id = r.device_id where d.code = 'P4'`);
      return (result as unknown as { rows: Array<{ damage_count: number }> }).rows[0]?.damage_count;
    };
    expect(await pipeline.submit({ ...report('P4'), receivedAt: Date.now() + 60_000 })).toBe('stored');
    expect(await damageCount()).toBe(0);
    const damaged = report('P4');
    const late: InboundMessage = {
      ...damaged,
      message: { ...damaged.message, kind: 'report', event: 'damage' } as InboundMessage['message'],
    };
    expect(await pipeline.submit(late)).toBe('stored');
    expect(await damageCount()).toBe(1);
    await pipeline.close();
  });

  it('starts a further writer once the queue behind a slow commit is worth a batch of its own', async () => {
    const gate = gatedDb(database.db);
    const pipeline = new IngestPipeline(gate.db, {
      logger: SILENT_LOGGER,
      writers: 3,
      maxBatch: 100,
      parallelBatch: 25,
      maxWaitMs: 60_000,
    });
    gate.close();
    const all = [pipeline.submit(report('P1'))];
    await until(() => gate.started === 1);
    for (let i = 0; i < 24; i++) all.push(pipeline.submit(report('P2')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gate.started).toBe(1);
    all.push(pipeline.submit(report('P3')));
    await until(() => gate.started === 2);
    gate.open();
    await Promise.all(all);
    expect(pipeline.snapshot()).toMatchObject({ stored: 26, batches: 2 });
    await pipeline.close();
  });

  it('gives a message that waited maxWaitMs behind a stuck commit to a free writer', async () => {
    const gate = gatedDb(database.db);
    const pipeline = new IngestPipeline(gate.db, {
      logger: SILENT_LOGGER,
      writers: 2,
      maxBatch: 100,
      parallelBatch: 50,
      maxWaitMs: 80,
    });
    gate.close();
    const first = pipeline.submit(report('P1'));
    await until(() => gate.started === 1);
    const queuedAt = Date.now();
    const second = pipeline.submit(report('P2'));
    await until(() => gate.started === 2, 2_000);
    expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(70);
    gate.open();
    expect(await Promise.all([first, second])).toEqual(['stored', 'stored']);
    await pipeline.close();
  });

  it('writes a lone message after maxDelayMs when no commit is running', async () => {
    const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, maxDelayMs: 5 });
    const started = Date.now();
    expect(await pipeline.submit(report('P3'))).toBe('stored');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(pipeline.snapshot().batches).toBe(1);
    await pipeline.close();
  });

  it('gives up, at shutdown, what a failing database could not take within the grace time', async () => {
    const failing = intercepted(database.db, () => Promise.reject(new Error('database unreachable')));
    const pipeline = new IngestPipeline(failing, { logger: SILENT_LOGGER, retryDelayMs: 20, maxDelayMs: 1 });
    const submitted = [pipeline.submit(report('P1')), pipeline.submit(report('P2'))];
    const outcomes = Promise.allSettled(submitted);
    await until(() => pipeline.snapshot().failedBatches >= 2);
    const started = Date.now();
    await pipeline.close(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    const settled = await outcomes;
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toBeInstanceOf(IngestClosedError);
    expect(pipeline.pending).toBe(0);
    await expect(pipeline.submit(report('P1'))).rejects.toBeInstanceOf(IngestClosedError);
  });

  it('stores what is queued at shutdown when the database answers', async () => {
    const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, maxDelayMs: 1_000 });
    const queued = [pipeline.submit(report('P1')), pipeline.submit(report('P2'))];
    await until(() => pipeline.pending === 2);
    await pipeline.close(5_000);
    expect(await Promise.all(queued)).toEqual(['stored', 'stored']);
  });

  it('runs work with no batch under way, starting none meanwhile, and waits for one under way only so long', async () => {
    const gate = gatedDb(database.db);
    const pipeline = new IngestPipeline(gate.db, { logger: SILENT_LOGGER, maxDelayMs: 0 });
    try {
      gate.close();
      const first = pipeline.submit(report('P1'));
      await until(() => gate.started === 1);
      let ran = false;
      const work = async () => {
        ran = true;
        return gate.started;
      };
      expect(await pipeline.whileIdle(work, 50)).toBeNull();
      expect(ran).toBe(false);
      gate.open();
      expect(await first).toBe('stored');
      let second: Promise<IngestOutcome> | undefined;
      const startedDuring = await pipeline.whileIdle(async () => {
        second = pipeline.submit(report('P2'));
        await new Promise((resolve) => setTimeout(resolve, 30));
        return gate.started;
      }, 1_000);
      expect(startedDuring).toBe(1);
      expect(await second).toBe('stored');
      expect(gate.started).toBe(2);
    } finally {
      gate.open();
      await pipeline.close();
    }
  });

  it('runs work while a failed batch waits to be tried again: only batches inside an attempt are waited for', async () => {
    let failOnce = true;
    const db = intercepted(database.db, async (run) => {
      if (failOnce) {
        failOnce = false;
        throw new Error('the database is away');
      }
      return run();
    });
    const pipeline = new IngestPipeline(db, { logger: SILENT_LOGGER, maxDelayMs: 0, retryDelayMs: 60_000 });
    const outcome = pipeline.submit(report('P3')).catch((error: unknown) => error);
    await until(() => pipeline.snapshot().failedBatches === 1);
    expect(await pipeline.whileIdle(async () => 'ran', 200)).toBe('ran');
    await pipeline.close(50);
    expect(await outcome).toBeInstanceOf(IngestClosedError);
  });

  describe('repeated reports', () => {
    beforeAll(async () => {
      for (const code of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8']) {
        await database.db.execute(sql`
          insert into device (name, code, unit_id, type_id, category, station_id, regist)
          values (${code}, ${code}, 'pu', 'pt', 'IoT', ${STATION}, true)`);
      }
    });

    const at = (code: string, receivedAt: number, lock?: 'open' | 'closed'): InboundMessage => {
      const message = report(code);
      return {
        ...message,
        receivedAt,
        ...(lock
          ? { message: { ...message.message, kind: 'report', lock } as InboundMessage['message'] }
          : {}),
      };
    };
    async function runtimeOf(code: string) {
      const result = await database.db.execute(sql`
        select (extract(epoch from r.last_collect_time) * 1000)::float8 as t, r.lock_state, r.last_message_id,
               r.online
        from device_runtime r join device d on d.id = r.device_id where d.code = ${code}`);
      const [row] = (
        result as unknown as {
          rows: Array<{ t: number; lock_state: string | null; last_message_id: string; online: boolean }>;
        }
      ).rows;
      return {
        t: Number(row?.t),
        lock: row?.lock_state ?? null,
        messageId: row?.last_message_id,
        online: row?.online,
      };
    }

    it('leaves the runtime row of a repeat unwritten, announces it at once and writes its time at shutdown', async () => {
      const events = new EventBus();
      const announced: Array<{ deviceId: string; t: number }> = [];
      events.subscribe('report.stored', 'test', (commit) => {
        for (const change of commit.runtime)
          announced.push({ deviceId: change.deviceId, t: change.lastCollectTime });
      });
      const pipeline = new IngestPipeline(database.db, {
        logger: SILENT_LOGGER,
        events,
        repeatIntervalMs: 60_000,
      });
      const t0 = Date.now();
      const history = await historyRows();
      expect(await pipeline.submit(at('R1', t0))).toBe('stored');
      expect((await runtimeOf('R1')).t).toBe(t0);
      const repeat = at('R1', t0 + 1_000);
      expect(await pipeline.submit(repeat)).toBe('stored');
      expect(await historyRows()).toBe(history + 2);
      expect((await runtimeOf('R1')).t).toBe(t0);
      expect(announced.map((a) => a.t)).toEqual([t0, t0 + 1_000]);

      // A changed state is written at once, and compared with from then on.
      expect(await pipeline.submit(at('R1', t0 + 2_000, 'open'))).toBe('stored');
      expect(await runtimeOf('R1')).toMatchObject({ t: t0 + 2_000, lock: 'open' });
      expect(await pipeline.submit(at('R1', t0 + 3_000, 'open'))).toBe('stored');
      expect((await runtimeOf('R1')).t).toBe(t0 + 2_000);

      // A device the offline sweep marked offline is written by its next report, which marks it online.
      const deviceId = announced[0]!.deviceId;
      await database.db.execute(sql`update device_runtime set online = false where device_id = ${deviceId}`);
      events.publish('runtime.offline', [
        { deviceId, stationId: STATION, lastCollectTime: null, offlineSince: null },
      ]);
      expect(await pipeline.submit(at('R1', t0 + 4_000, 'open'))).toBe('stored');
      expect(await runtimeOf('R1')).toMatchObject({ t: t0 + 4_000, online: true });

      const last = at('R1', t0 + 5_000, 'open');
      expect(await pipeline.submit(last)).toBe('stored');
      expect((await runtimeOf('R1')).t).toBe(t0 + 4_000);
      expect(pipeline.snapshot()).toMatchObject({ stored: 6, runtimeWrites: 3, runtimeRepeats: 3 });
      await pipeline.close();
      expect(await runtimeOf('R1')).toEqual({
        t: t0 + 5_000,
        lock: 'open',
        messageId: last.message.messageId,
        online: true,
      });
    });

    it("writes the repeats' times once the interval has passed", async () => {
      const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, repeatIntervalMs: 300 });
      const t0 = Date.now();
      await pipeline.submit(at('R2', t0));
      await pipeline.submit(at('R2', t0 + 100));
      expect((await runtimeOf('R2')).t).toBe(t0);
      const started = Date.now();
      for (;;) {
        if ((await runtimeOf('R2')).t === t0 + 100) break;
        expect(Date.now() - started).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await pipeline.close();
    });

    it("keeps a repeat's states against an older report planned after it", async () => {
      // The first batch that asks for the run-state hints waits at a gate: a batch held up before it plans
      // (as one retried, or written step by step, is), while the batch behind it goes ahead.
      let hold: Promise<void> | null = null;
      let release = () => {};
      const pipeline = new IngestPipeline(database.db, {
        logger: SILENT_LOGGER,
        writers: 2,
        repeatIntervalMs: 60_000,
        runStates: {
          hints: async () => {
            if (hold) {
              const gate = hold;
              hold = null;
              await gate;
            }
            return NO_HINTS;
          },
          settle: async () => new Map(),
        },
      });
      const t0 = Date.now();
      expect(await pipeline.submit(at('R3', t0, 'closed'))).toBe('stored');
      ({ promise: hold, release } = releasable());
      const opened = pipeline.submit(at('R3', t0 + 1_000, 'open'));
      await until(() => hold === null);
      // While the opening is held, the lock says closed again: a repeat of the first report, written first.
      expect(await pipeline.submit(at('R3', t0 + 2_000, 'closed'))).toBe('stored');
      release();
      expect(await opened).toBe('stored');
      await pipeline.close();
      expect(await runtimeOf('R3')).toMatchObject({ t: t0 + 2_000, lock: 'closed' });
    });

    it('keeps a repeat under way against an older report taken after it', async () => {
      const gate = gatedDb(database.db);
      const pipeline = new IngestPipeline(gate.db, {
        logger: SILENT_LOGGER,
        writers: 2,
        repeatIntervalMs: 60_000,
      });
      const t0 = Date.now();
      expect(await pipeline.submit(at('R7', t0, 'closed'))).toBe('stored');
      const started = gate.started;
      gate.close();
      // A repeat, held in its commit; then a report received before it reaches the queue behind it (a clock
      // set back, or the same lock by another address).
      const repeat = pipeline.submit(at('R7', t0 + 2_000, 'closed'));
      await until(() => gate.started === started + 1);
      const older = pipeline.submit(at('R7', t0 + 1_000, 'open'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      gate.open();
      expect(await Promise.all([repeat, older])).toEqual(['stored', 'stored']);
      await pipeline.close();
      expect(await runtimeOf('R7')).toMatchObject({ t: t0 + 2_000, lock: 'closed' });
    });

    it('keeps an opening whose batch fell back while a later batch held a repeat made of a redelivery', async () => {
      // Armed, the first transaction waits for the second to arrive; the second runs 300 ms after the first.
      let armed = false;
      let calls = 0;
      const { promise: arrived, release: secondArrived } = releasable();
      const { promise: ended, release: firstEnded } = releasable();
      const db = intercepted(database.db, async (run) => {
        if (!armed) return run();
        calls++;
        if (calls === 1) {
          await arrived;
          try {
            return await run();
          } finally {
            firstEnded();
          }
        }
        if (calls === 2) {
          secondArrived();
          await ended;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        return run();
      });
      const pipeline = new IngestPipeline(db, {
        logger: SILENT_LOGGER,
        writers: 2,
        maxWaitMs: 10,
        repeatIntervalMs: 60_000,
      });
      const t0 = Date.now();
      const first = at('R8', t0, 'closed');
      expect(await pipeline.submit(first)).toBe('stored');
      armed = true;
      // One batch: an opening and the closed report again (a redelivery): merged, a repeat. Then a batch
      // of the closed report once more: a repeat too, planned while the first is written.
      const opening = pipeline.submit(at('R8', t0 + 1_000, 'open'));
      const again = pipeline.submit({ ...first, receivedAt: t0 + 2_000 });
      await until(() => calls === 1);
      const third = pipeline.submit({ ...first, receivedAt: t0 + 3_000 });
      expect(await Promise.all([opening, again, third])).toEqual(['stored', 'duplicate', 'duplicate']);
      await pipeline.close();
      expect(await runtimeOf('R8')).toMatchObject({ t: t0 + 1_000, lock: 'open' });
    });

    it("writes the states of a batch that held a redelivery, whose merged time was the redelivery's", async () => {
      const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, repeatIntervalMs: 60_000 });
      const t0 = Date.now();
      const first = at('R5', t0, 'closed');
      expect(await pipeline.submit(first)).toBe('stored');
      const batches = pipeline.snapshot().batches;
      // One batch: an opening, and the first report again (a broker's redelivery, received later).
      const outcomes = Promise.all([
        pipeline.submit(at('R5', t0 + 1_000, 'open')),
        pipeline.submit({ ...first, receivedAt: t0 + 2_000 }),
      ]);
      expect(await outcomes).toEqual(['stored', 'duplicate']);
      expect(pipeline.snapshot().batches).toBe(batches + 1);
      await pipeline.close();
      expect(await runtimeOf('R5')).toMatchObject({ t: t0 + 1_000, lock: 'open' });
    });

    it('counts the damage report of a message older than a repeat, which writes no states', async () => {
      const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER, repeatIntervalMs: 60_000 });
      const t0 = Date.now();
      await pipeline.submit(at('R6', t0, 'closed'));
      await pipeline.submit(at('R6', t0 + 2_000, 'closed'));
      const damaged = at('R6', t0 + 1_000, 'open');
      const late: InboundMessage = {
        ...damaged,
        message: { ...damaged.message, event: 'damage' } as InboundMessage['message'],
      };
      expect(await pipeline.submit(late)).toBe('stored');
      await pipeline.close();
      const result = await database.db.execute(sql`
        select r.damage_count from device_runtime r join device d on d.id = r.device_id where d.code = 'R6'`);
      expect((result as unknown as { rows: Array<{ damage_count: number }> }).rows[0]?.damage_count).toBe(1);
      expect(await runtimeOf('R6')).toMatchObject({ t: t0 + 2_000, lock: 'closed' });
    });

    it('writes a repeat later as any update: over older data only, with its states, marking the device online', async () => {
      const t0 = Date.now();
      const first = new IngestPipeline(database.db, { logger: SILENT_LOGGER, repeatIntervalMs: 60_000 });
      await first.submit(at('R4', t0, 'closed'));
      await first.submit(at('R4', t0 + 2_000, 'closed'));
      expect(await runtimeOf('R4')).toMatchObject({ t: t0, lock: 'closed' });
      // Meanwhile another writer stored an older report of other states, and the sweep marked the lock offline.
      const olderElsewhere = sql`
        update device_runtime set lock_state = 'open', last_collect_time = to_timestamp(${(t0 + 1_000) / 1000.0}),
               online = false, offline_since = now()
        where device_id = (select id from device where code = 'R4')`;
      await database.db.execute(olderElsewhere);
      await first.close();
      expect(await runtimeOf('R4')).toMatchObject({ t: t0 + 2_000, lock: 'closed', online: true });

      // Over data as new as it (another report of the same millisecond), it writes nothing.
      const second = new IngestPipeline(database.db, { logger: SILENT_LOGGER, repeatIntervalMs: 60_000 });
      await second.submit(at('R4', t0 + 3_000, 'closed'));
      await second.submit(at('R4', t0 + 4_000, 'closed'));
      await database.db.execute(sql`
        update device_runtime set lock_state = 'open', last_collect_time = to_timestamp(${(t0 + 4_000) / 1000.0})
        where device_id = (select id from device where code = 'R4')`);
      await second.close();
      expect(await runtimeOf('R4')).toMatchObject({ t: t0 + 4_000, lock: 'open' });
    });

    it('writes every report when the interval is 0 (the default)', async () => {
      const pipeline = new IngestPipeline(database.db, { logger: SILENT_LOGGER });
      const t0 = Date.now();
      await pipeline.submit(at('R2', t0));
      await pipeline.submit(at('R2', t0 + 1));
      expect((await runtimeOf('R2')).t).toBe(t0 + 1);
      await pipeline.close();
    });
  });
});
