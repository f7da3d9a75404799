import { api, Permission } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { lockTask, lockTaskOperator, operationRecord } from '../src/modules/tasks/tasks.schema.ts';
import { openTestApp, type TestApp, type TestStaff, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectOk } from './support/org.ts';

/** A day far from the other suites' records: 2032-03-15, 10:00 in the console's time (UTC+8). */
const NOW = Date.parse('2032-03-15T02:00:00Z');
const DAY_START = '2032-03-14T16:00:00Z';
const DAY_END = '2032-03-15T16:00:00Z';
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * Home's task figures (spec §7 `/fp/getTodayDeviceOp`, `/fp/getTodayTask`) and the task lists' scopes for
 * "my tasks": to audit (to-do), assigned to me, audited by me (done). Records and tasks are written straight
 * into their tables at times around the console's day.
 */
describe.each(databases)("Home's tasks and operations ($kind)", (kind) => {
  let t: TestApp;
  let reader: TestStaff;
  let token: string;

  beforeAll(async () => {
    t = await openTestApp(kind, { services: { now: () => new Date(NOW) } });
    reader = await t.createStaff({ permissions: [Permission.LockTaskRead, Permission.OperationRecordRead] });
    token = await t.signIn(reader.name, reader.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = async (operateTime: string, deviceName: string) => {
    await t.db.insert(operationRecord).values({
      stationId: DEFAULT_STATION.id,
      deviceName,
      action: 'open',
      opMethod: 'remote',
      source: 'console',
      result: 'succeeded',
      operateTime: new Date(operateTime),
    });
  };
  const task = async (
    name: string,
    values: { start: string; end: string; state: typeof lockTask.$inferInsert.state },
    extra: Partial<typeof lockTask.$inferInsert> = {},
  ) => {
    const [row] = await t.db
      .insert(lockTask)
      .values({
        name,
        state: values.state,
        startTime: new Date(values.start),
        endTime: new Date(values.end),
        creatorId: 'admin',
        creatorName: 'admin',
        ...extra,
      })
      .returning({ id: lockTask.id });
    return row!.id;
  };

  it("lists today's operation records, newest first, at most the limit", async () => {
    const device = uniqueName('Home door');
    await record(shift(DAY_START, -1), `${device} yesterday`);
    await record(DAY_START, `${device} 1`);
    await record(shift(DAY_START, 3_600_000), `${device} 2`);
    await record(shift(DAY_START, 7_200_000), `${device} 3`);
    const response = await t.call(api.home.getTodayDeviceOp, { query: { limit: 2 }, token });
    expectOk(response);
    expect(response.body.data.total).toBe(3);
    expect(response.body.data.rows.map((r) => r.deviceName)).toEqual([`${device} 3`, `${device} 2`]);
  });

  it('lists the approved tasks whose time includes today, not those waiting, withdrawn or of another day', async () => {
    const prefix = uniqueName('Home task');
    await task(`${prefix} yesterday`, {
      start: shift(DAY_START, -7_200_000),
      end: DAY_START,
      state: 'Finish',
    });
    await task(`${prefix} tomorrow`, { start: DAY_END, end: shift(DAY_END, 3_600_000), state: 'None' });
    await task(`${prefix} waiting`, { start: DAY_START, end: DAY_END, state: 'Audit' });
    await task(`${prefix} withdrawn`, { start: DAY_START, end: DAY_END, state: 'Cancel' });
    const running = await task(`${prefix} running`, {
      start: shift(DAY_START, -3_600_000),
      end: shift(DAY_START, 1),
      state: 'Execute',
    });
    const later = await task(`${prefix} later`, { start: shift(DAY_END, -1), end: DAY_END, state: 'None' });
    const response = await t.call(api.home.getTodayTask, { query: { limit: 50 }, token });
    expectOk(response);
    const mine = response.body.data.rows.filter((r) => r.name.startsWith(prefix));
    expect(mine.map((r) => r.id)).toEqual([running, later]);
  });

  it("answers the scopes of 'my tasks': assigned to me and audited by me", async () => {
    const assigned = await task(uniqueName('Assigned'), { start: DAY_START, end: DAY_END, state: 'Execute' });
    await t.db.insert(lockTaskOperator).values({ taskId: assigned, staffId: reader.id });
    const audited = await task(
      uniqueName('Audited'),
      { start: DAY_START, end: DAY_END, state: 'None' },
      { auditedBy: reader.id, auditedByName: reader.name, authFlag: 'Pass', auditedAt: new Date(NOW) },
    );
    await task(uniqueName('Other'), { start: DAY_START, end: DAY_END, state: 'Execute' });
    for (const [scope, id] of [
      ['assigned', assigned],
      ['audited', audited],
    ] as const) {
      const page = await t.call(api.lockTask.queryPage, {
        query: { pageIndex: 1, pageSize: 50, scope },
        token,
      });
      expectOk(page);
      expect(page.body.data.rows.map((r) => r.id)).toEqual([id]);
    }
  });
});
