import { randomUUID } from 'node:crypto';
import { api, type WarnRuleForm } from '@uiot/contracts';
import { type DeviceReport, decodeNativeReport, encodeNativeReport } from '@uiot/device-protocol';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { DEFAULT_STATION } from '../../src/lib/station.ts';
import { alarmTimer, deviceAlarm } from '../../src/modules/alarms/alarms.schema.ts';
import { type TestApp, uniqueName } from './app.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './devices.ts';
import { expectOk, orgHelpers } from './org.ts';

export const seconds = (n: number) => n * 1000;

/** Door left open: the rule item most alarm tests raise on. */
export const doorOpen = {
  propCode: 'doorState',
  propName: 'Door',
  propOrigin: 'Master',
  propVal: 'open',
  valType: 'string',
  conditionType: 'Eq',
} as const;

/**
 * Locks that report through ingest at the alarm clock's time, warn rules made through the API, and the
 * alarms and timers they lead to: the warn-rule engine end to end (docs/alarms.md).
 */
export function alarmHelpers(t: () => TestApp, clock: () => number) {
  const { post } = orgHelpers(t);

  /** A registered lock of a new type, reporting over MQTT by its code. */
  const newLock = async () => {
    const typeId = await insertDeviceTypeRow(t().db);
    const unitId = await insertUnitRow(t().db);
    const code = uniqueName('L');
    const id = await insertDeviceRow(t().db, { unitId, typeId, code, regist: true });
    return { id, typeId, code };
  };

  /** A report of the lock, received at the alarm clock's time; resolves once the runner has evaluated it. */
  const report = async (lock: { code: string }, fields: Omit<DeviceReport, 'kind' | 'messageId'>) => {
    const raw = encodeNativeReport({ messageId: randomUUID(), ...fields });
    const decoded = decodeNativeReport(raw);
    if (!decoded.ok) throw new Error('test report does not decode');
    const outcome = await t().services.iot.ingest.submit({
      protocol: 'mqtt',
      address: { by: 'code', stationId: DEFAULT_STATION.id, code: lock.code },
      message: decoded.value,
      raw,
      receivedAt: clock(),
    });
    expect(outcome).toBe('stored');
    await t().services.alarms.runner.settled();
  };

  const createRule = async (typeId: string, extra: Partial<WarnRuleForm> = {}) => {
    const response = await post(api.warnRule.save, {
      deviceTypeId: typeId,
      name: uniqueName('Door left open'),
      formatMsg: '{device} door open since {time} ({prop:doorState})',
      ruleType: 'Instant',
      logicType: 'AND',
      items: [doorOpen],
      ...extra,
    } as WarnRuleForm);
    expectOk(response);
    return response.body.data.id;
  };

  const alarmsOf = (deviceId: string) =>
    t().db.select().from(deviceAlarm).where(eq(deviceAlarm.deviceId, deviceId)).orderBy(deviceAlarm.warnTime);
  const timersOf = (deviceId: string) =>
    t().db.select().from(alarmTimer).where(eq(alarmTimer.deviceId, deviceId));
  /** One pass of the timer job (it takes every due timer, other tests' included). */
  const fire = async () => {
    await t().services.alarms.runner.fireDue();
  };

  return { newLock, report, createRule, alarmsOf, timersOf, fire };
}
