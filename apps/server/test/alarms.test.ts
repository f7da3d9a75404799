import { api, Permission, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmHelpers, seconds } from './support/alarms.ts';
import { createTestApp, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';

/**
 * The warn-rule engine end to end (docs/alarms.md): reports go through ingest, the runner evaluates them
 * after commit, Delay and resend timers are fired by the timer pass on the alarm clock the test moves.
 */
describe.each(databases)('alarms ($kind)', (kind) => {
  let t: TestApp;
  let clock = Date.now();
  const { admin, get, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind, { services: { alarmClock: () => clock } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const { newLock, report, createRule, alarmsOf, timersOf, fire } = alarmHelpers(
    () => t,
    () => clock,
  );

  it('raises an Instant rule once while its condition holds, and resets it to Normal when it clears', async () => {
    const lock = await newLock();
    await createRule(lock.typeId);
    await report(lock, { door: 'closed' });
    expect(await alarmsOf(lock.id)).toEqual([]);
    await report(lock, { door: 'open' });
    await report(lock, { door: 'open', battery: 80 });
    const [open] = await alarmsOf(lock.id);
    expect(await alarmsOf(lock.id)).toHaveLength(1);
    // The rule names no recipients: nobody was told.
    expect(open).toMatchObject({ state: 'Warn', severity: 'major', sendCount: 0, propName: 'Door' });
    expect(open!.content).toContain('door open since');
    expect(open!.content).toContain('(open)');
    clock += seconds(5);
    await report(lock, { door: 'closed' });
    const [closed] = await alarmsOf(lock.id);
    expect(closed).toMatchObject({ state: 'Normal', resetStaffId: null });
    expect(closed!.resetTime?.getTime()).toBe(clock);
  });

  it('raises on what a report said although a later report was stored before the rules read it', async () => {
    const lock = await newLock();
    await createRule(lock.typeId);
    await report(lock, { door: 'closed' });
    // Two committed batches reach the runner after the second was stored (door closed again): the first is
    // still evaluated with its own door open, raising the alarm the second then clears.
    const { runner } = t.services.alarms;
    const opened = clock + seconds(1);
    const closedAt = clock + seconds(2);
    void runner.reportsStored([{ deviceId: lock.id, at: opened, reported: { doorState: 'open' } }]);
    await runner.reportsStored([{ deviceId: lock.id, at: closedAt, reported: { doorState: 'closed' } }]);
    const alarms = await alarmsOf(lock.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ state: 'Normal' });
    expect(alarms[0]!.warnTime.getTime()).toBe(opened);
    expect(alarms[0]!.resetTime?.getTime()).toBe(closedAt);
  });

  it('raises a Delay rule only after the condition held for the whole delay, reminds, and clears', async () => {
    const lock = await newLock();
    await createRule(lock.typeId, {
      ruleType: 'Delay',
      delayInterval: 300,
      resend: true,
      resendInterval: 600,
    });
    const start = clock;
    await report(lock, { door: 'open' });
    expect(await timersOf(lock.id)).toMatchObject([{ kind: 'delay' }]);
    clock = start + seconds(299);
    await fire();
    expect(await alarmsOf(lock.id)).toEqual([]);
    clock = start + seconds(300);
    await fire();
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Warn', sendCount: 0 }]);
    expect(await timersOf(lock.id)).toMatchObject([{ kind: 'resend' }]);
    // Still open: no second alarm.
    clock = start + seconds(400);
    await report(lock, { door: 'open' });
    expect(await alarmsOf(lock.id)).toHaveLength(1);
    clock = start + seconds(900);
    await fire();
    await fire();
    // Reminded, with nobody to tell: still nothing sent.
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Warn', sendCount: 0 }]);
    clock = start + seconds(950);
    await report(lock, { door: 'closed' });
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Normal' }]);
    expect(await timersOf(lock.id)).toEqual([]);
  });

  it('raises nothing when the door closes during the delay, and counts the delay again after', async () => {
    const lock = await newLock();
    await createRule(lock.typeId, { ruleType: 'Delay', delayInterval: 60 });
    const start = clock;
    await report(lock, { door: 'open' });
    clock = start + seconds(30);
    await report(lock, { door: 'closed' });
    expect(await timersOf(lock.id)).toEqual([]);
    clock = start + seconds(40);
    await report(lock, { door: 'open' });
    clock = start + seconds(90);
    await fire();
    expect(await alarmsOf(lock.id)).toEqual([]);
    clock = start + seconds(100);
    await fire();
    const [alarm] = await alarmsOf(lock.id);
    expect(alarm!.warnTime.getTime()).toBe(start + seconds(100));
  });

  it('lets staff acknowledge (reminders stop) and reset an alarm, and lists it', async () => {
    const lock = await newLock();
    await createRule(lock.typeId, { resend: true, resendInterval: 60, severity: 'critical' });
    await report(lock, { door: 'open' });
    const [alarm] = await alarmsOf(lock.id);
    const count = await get(api.deviceAlarm.openCount);
    expectOk(count);
    expect(count.body.data.open).toBeGreaterThanOrEqual(1);

    const acker = await t.createStaff({ permissions: [Permission.AlarmAck, Permission.AlarmRead] });
    const ackToken = await tokenOf(acker);
    expectOk(await t.call(api.deviceAlarm.acknowledge, { query: { id: alarm!.id }, token: ackToken }));
    expect(await timersOf(lock.id)).toEqual([]);
    // Acknowledging does not reset: that needs its own key.
    expectCode(
      await t.call(api.deviceAlarm.reset, { query: { id: alarm!.id }, token: ackToken }),
      ResultCode.Forbidden,
    );
    clock += seconds(10);
    expectOk(await t.call(api.deviceAlarm.reset, { query: { id: alarm!.id }, token: await admin() }));
    expectCode(
      await t.call(api.deviceAlarm.reset, { query: { id: alarm!.id }, token: await admin() }),
      ResultCode.AlarmClosed,
    );
    const [reset] = await alarmsOf(lock.id);
    expect(reset).toMatchObject({
      state: 'Reset',
      resetStaffId: 'admin',
      ackStaffId: acker.id,
      ackStaffName: acker.name,
    });
    expect(reset!.resetTime?.getTime()).toBe(clock);

    const listed = await get(api.deviceAlarm.queryPage, { deviceId: lock.id });
    expectOk(listed);
    expect(listed.body.data.rows).toMatchObject([
      {
        id: alarm!.id,
        state: 'Reset',
        severity: 'critical',
        ackStaffName: acker.name,
        deviceCode: lock.code,
      },
    ]);
    // While the door stays open after a reset, the next report raises a new alarm.
    await report(lock, { door: 'open' });
    expect((await alarmsOf(lock.id)).map((a) => a.state)).toEqual(['Reset', 'Warn']);
    const open = await get(api.deviceAlarm.queryPage, { deviceId: lock.id, state: 'Warn' });
    expect(open.body.data.total).toBe(1);
  });

  it('answers 404 for an alarm that does not exist, and refuses a reader', async () => {
    expectCode(
      await t.call(api.deviceAlarm.reset, { query: { id: 'nope' }, token: await admin() }),
      ResultCode.NotFound,
    );
    const reader = await t.createStaff({ permissions: [Permission.AlarmRead] });
    expectCode(
      await t.call(api.deviceAlarm.acknowledge, { query: { id: 'nope' }, token: await tokenOf(reader) }),
      ResultCode.Forbidden,
    );
  });

  it('stops evaluating a deleted rule; its alarms stay with its name', async () => {
    const lock = await newLock();
    const ruleId = await createRule(lock.typeId, { ruleType: 'Delay', delayInterval: 60 });
    await report(lock, { door: 'open' });
    expectOk(await get(api.warnRule.del, { id: ruleId }));
    expect(await timersOf(lock.id)).toEqual([]);
    clock += seconds(120);
    await fire();
    await report(lock, { door: 'open' });
    expect(await alarmsOf(lock.id)).toEqual([]);
  });

  // Last: it replaces the app with one built anew on the same database.
  it('raises once, at the end of the delay, when the server restarts during it', async () => {
    const lock = await newLock();
    await createRule(lock.typeId, { ruleType: 'Delay', delayInterval: 120 });
    const start = clock;
    await report(lock, { door: 'open' });
    await t.closeApp();
    t = await createTestApp(t.database, { services: { alarmClock: () => clock } });
    clock = start + seconds(60);
    await fire();
    expect(await alarmsOf(lock.id)).toEqual([]);
    clock = start + seconds(120);
    // Two passes at once (as two instances would run them): the timer is taken by one.
    await Promise.all([fire(), fire()]);
    await fire();
    const alarms = await alarmsOf(lock.id);
    expect(alarms).toMatchObject([{ state: 'Warn' }]);
    expect(alarms[0]!.warnTime.getTime()).toBe(start + seconds(120));
  });
});
