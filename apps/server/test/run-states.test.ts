import { api, type PowerLevelForm, type RuntimeRow } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import type { CommittedRuntime, RunStateChange } from '../src/modules/iot/index.ts';
import { deviceDamageReport, deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import { sweepOfflineDevices } from '../src/modules/iot/runtime-jobs.ts';
import { alarmHelpers } from './support/alarms.ts';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectOk, orgHelpers } from './support/org.ts';

const LOW: PowerLevelForm = { level: 1, startValue: 0, endValue: 20, availableDays: 3, state: 'lowPower' };
const NORMAL: PowerLevelForm = {
  level: 2,
  startValue: 20,
  endValue: 100,
  availableDays: 300,
  state: 'normal',
};

/**
 * Run states the server works out (docs/alarms.md, Run states): low power from the power levels, damaged
 * from the damage levels and the damage reports of 30 days, timeOutNotClosed from the door-open time; the
 * stored state is what the monitor filters and counts, what the console is told and what warn rules read.
 */
describe.each(databases)('computed run states ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get } = orgHelpers(() => t);
  const { newLock, report, createRule, alarmsOf } = alarmHelpers(() => t, Date.now);
  const announced: CommittedRuntime[] = [];
  const passed: RunStateChange[] = [];

  beforeAll(async () => {
    t = await openTestApp(kind);
    t.services.events.subscribe('report.stored', 'test', (commit) => {
      announced.push(...commit.runtime);
    });
    t.services.events.subscribe('runtime.runState', 'test', (changes) => {
      passed.push(...changes);
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async (deviceId: string) => {
    const [row] = await t.db.select().from(deviceRuntime).where(eq(deviceRuntime.deviceId, deviceId));
    return row!;
  };
  const shownRunState = async (deviceId: string) => (await stored(deviceId)).runState;
  const monitorRow = async (deviceId: string, query: Record<string, string> = {}) => {
    const response = await get(api.runtime.queryPage, { pageSize: '100', ...query });
    expectOk(response);
    return response.body.data.rows.find((row: RuntimeRow) => row.deviceId === deviceId);
  };
  const lastAnnounced = (deviceId: string) => announced.filter((c) => c.deviceId === deviceId).at(-1);
  const pass = () => t.services.iot.runStates.pass();
  const saveLevel = async (
    endpoint: typeof api.powerLevel.save | typeof api.damageLevel.save,
    body: object,
  ) => {
    const saved = await t.call(endpoint, { body: body as never, token: await admin() });
    expectOk(saved);
    return saved.body.data.id as string;
  };

  it('shows low power from the power levels, over the lock reporting itself normal, and counts it', async () => {
    const lock = await newLock();
    await report(lock, { battery: 15, runState: 'normal' });
    // No power level yet: the lock's own state.
    expect(await shownRunState(lock.id)).toBe('normal');

    const levels = [await saveLevel(api.powerLevel.save, LOW), await saveLevel(api.powerLevel.save, NORMAL)];
    // Levels changed: the pass works out every device again and tells the console.
    const changes = await pass();
    expect(changes).toContainEqual(expect.objectContaining({ deviceId: lock.id, runState: 'lowPower' }));
    expect(passed.some((c) => c.deviceId === lock.id && c.runState === 'lowPower')).toBe(true);
    expect(await shownRunState(lock.id)).toBe('lowPower');
    expect((await stored(lock.id)).reportedRunState).toBe('normal');
    expect((await monitorRow(lock.id, { runState: 'lowPower' }))?.runState).toBe('lowPower');
    expect(await monitorRow(lock.id, { runState: 'normal' })).toBeUndefined();

    // A report that changes the battery changes the state with it, and says so.
    await report(lock, { battery: 60 });
    expect(await shownRunState(lock.id)).toBe('normal');
    expect(lastAnnounced(lock.id)?.runState).toBe('normal');
    await report(lock, { battery: 10, runState: 'normal' });
    expect(await shownRunState(lock.id)).toBe('lowPower');
    expect(lastAnnounced(lock.id)?.runState).toBe('lowPower');
    // A report that changes nothing of the state does not announce one.
    await report(lock, { battery: 11, runState: 'normal' });
    expect(lastAnnounced(lock.id)?.runState).toBeUndefined();

    for (const id of levels) expectOk(await get(api.powerLevel.del, { id }));
    await pass();
    expect(await shownRunState(lock.id)).toBe('normal');
  });

  it('shows a door left open past the door-open time, raises a rule on it, and ends with the door closed', async () => {
    await t.setParam('DoorOpenTimeout', '0.005'); // 300 ms
    t.services.iot.runStates.forget();
    const lock = await newLock();
    const ruleId = await createRule(lock.typeId, {
      formatMsg: '{device}',
      items: [
        {
          propCode: 'runState',
          propName: 'Run state',
          propOrigin: 'Master',
          propVal: 'timeOutNotClosed',
          valType: 'string',
          conditionType: 'Eq',
        },
      ],
    });
    await report(lock, { door: 'open', runState: 'normal' });
    expect((await stored(lock.id)).doorOpenSince).not.toBeNull();
    await pass();
    expect(await shownRunState(lock.id)).toBe('normal');
    // A report while the door still stands open keeps the time it opened.
    const since = (await stored(lock.id)).doorOpenSince;
    await report(lock, { door: 'open', battery: 90 });
    expect((await stored(lock.id)).doorOpenSince).toEqual(since);

    await new Promise((resolve) => setTimeout(resolve, 400));
    const changes = await pass();
    expect(changes).toContainEqual(
      expect.objectContaining({ deviceId: lock.id, runState: 'timeOutNotClosed' }),
    );
    expect(await shownRunState(lock.id)).toBe('timeOutNotClosed');
    await t.services.alarms.runner.settled();
    const raised = await alarmsOf(lock.id);
    expect(raised.map((a) => [a.ruleId, a.state])).toEqual([[ruleId, 'Warn']]);
    // Found once: the next pass has nothing to change.
    expect((await pass()).filter((c) => c.deviceId === lock.id)).toEqual([]);

    await report(lock, { door: 'closed' });
    expect((await stored(lock.id)).doorOpenSince).toBeNull();
    expect(await shownRunState(lock.id)).toBe('normal');
    expect(lastAnnounced(lock.id)?.runState).toBe('normal');
    const [cleared] = await t.db.select().from(deviceAlarm).where(eq(deviceAlarm.deviceId, lock.id));
    expect(cleared!.state).toBe('Normal');

    await t.setParam('DoorOpenTimeout', '0');
    t.services.iot.runStates.forget();
  });

  it('keeps ingesting and passing whatever door-open time is stored (finding: "interval out of range")', async () => {
    // Set in the database, or saved before the range was checked: the API refuses these now.
    for (const value of ['99999999999999999999', '-5', 'hello', ' ']) {
      await t.setParam('DoorOpenTimeout', value);
      t.services.iot.runStates.forget();
      const lock = await newLock();
      await report(lock, { door: 'open', runState: 'normal' });
      await report(lock, { door: 'open', battery: 80 });
      expect((await stored(lock.id)).doorOpenSince, value).not.toBeNull();
      await expect(pass(), value).resolves.toBeDefined();
      expect(await shownRunState(lock.id), value).toBe('normal');
      await report(lock, { door: 'closed' });
    }
    await t.setParam('DoorOpenTimeout', '30');
    t.services.iot.runStates.forget();
  });

  it('shows damaged once the damage reports of 30 days fall in a damage level, and not after they age out', async () => {
    const levelId = await saveLevel(api.damageLevel.save, {
      level: 1,
      description: 'Forced twice or more',
      startValue: 2,
      endValue: 100,
    });
    const lock = await newLock();
    await report(lock, { event: 'damage', runState: 'normal' });
    expect((await stored(lock.id)).damageCount).toBe(1);
    expect(await shownRunState(lock.id)).toBe('normal');
    await report(lock, { event: 'damage' });
    expect((await stored(lock.id)).damageCount).toBe(2);
    expect(await shownRunState(lock.id)).toBe('damaged');
    expect(lastAnnounced(lock.id)?.runState).toBe('damaged');
    // Other reports keep the count.
    await report(lock, { event: 'heartbeat', battery: 80 });
    expect((await stored(lock.id)).damageCount).toBe(2);

    // One report leaves the 30 days: counted again, below the level.
    const [first] = await t.db
      .select()
      .from(deviceDamageReport)
      .where(eq(deviceDamageReport.deviceId, lock.id))
      .orderBy(deviceDamageReport.reportedAt);
    const monthAgo = new Date(Date.now() - 31 * 86_400_000);
    await t.db
      .update(deviceDamageReport)
      .set({ reportedAt: monthAgo })
      .where(eq(deviceDamageReport.messageId, first!.messageId));
    await t.db
      .update(deviceRuntime)
      .set({ damageRecountAt: new Date(Date.now() - 1000) })
      .where(eq(deviceRuntime.deviceId, lock.id));
    const changes = await pass();
    expect(changes).toContainEqual(expect.objectContaining({ deviceId: lock.id, runState: 'normal' }));
    expect((await stored(lock.id)).damageCount).toBe(1);
    // The aged report is gone.
    const left = await t.db.select().from(deviceDamageReport).where(eq(deviceDamageReport.deviceId, lock.id));
    expect(left).toHaveLength(1);

    expectOk(await get(api.damageLevel.del, { id: levelId }));
    await pass();
  });

  it('evaluates warn rules when a device goes offline', async () => {
    const lock = await newLock();
    await createRule(lock.typeId, {
      formatMsg: '{device} offline at {time}',
      items: [
        {
          propCode: 'online',
          propName: 'Online',
          propOrigin: 'Master',
          propVal: 'false',
          valType: 'boolean',
          conditionType: 'Eq',
        },
      ],
    });
    await report(lock, { battery: 80 });
    expect(await alarmsOf(lock.id)).toEqual([]);
    const offline = await sweepOfflineDevices(t.db, new Date(Date.now() + 86_400_000));
    expect(offline.map((d) => d.deviceId)).toContain(lock.id);
    t.services.events.publish('runtime.offline', offline);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.services.alarms.runner.settled();
    const [alarm] = await alarmsOf(lock.id);
    expect(alarm?.state).toBe('Warn');
    // {time} is written as the console shows times (UTC+8), not as an ISO instant.
    const shown = new Date(alarm!.warnTime.getTime() + 8 * 3_600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
    expect(alarm?.content).toMatch(/ offline at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(alarm?.content.endsWith(shown)).toBe(true);
  });
});
