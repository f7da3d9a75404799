import { api, Permission, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';

type RuntimeValues = Partial<typeof deviceRuntime.$inferInsert>;

/**
 * The runtime monitor's counters (api.runtime.summary): over the registered devices, read as the runtime
 * page's filters read them, so that each counter is the total the matching filter finds.
 */
describe.each(databases)('runtime monitor counters ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get } = orgHelpers(() => t);
  let unitId: string;
  let typeId: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    unitId = await insertUnitRow(t.db);
    typeId = await insertDeviceTypeRow(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A device in the ledger with runtime data (none: it never reported). */
  async function lock(runtime: RuntimeValues | null, regist = true): Promise<string> {
    const deviceId = await insertDeviceRow(t.db, { unitId, typeId, regist });
    if (runtime) {
      await t.db.insert(deviceRuntime).values({ deviceId, lastCollectTime: new Date(), ...runtime });
    }
    return deviceId;
  }

  const summary = async (token?: string) => get(api.runtime.summary, {}, token);
  const pageTotal = async (query: Record<string, string>) => {
    const response = await get(api.runtime.queryPage, query);
    expectOk(response);
    return response.body.data.total;
  };

  it('counts nothing without registered devices', async () => {
    const response = await summary();
    expectOk(response);
    expect(response.body.data).toEqual({
      total: 0,
      online: 0,
      offline: 0,
      doorOpen: 0,
      lockOpen: 0,
      lowBattery: 0,
      abnormal: 0,
    });
  });

  it('counts registered devices by state, each counter as the matching filter finds them', async () => {
    await lock({ online: true, doorState: 'open', lockState: 'open', battery: 19.5, runState: 'lowPower' });
    await lock({ online: true, doorState: 'closed', lockState: 'closed', battery: 20, runState: 'normal' });
    await lock({ online: false, doorState: 'open', lockState: 'closed', battery: 80, runState: 'damaged' });
    await lock({ online: false, battery: null, runState: null, offlineSince: new Date() });
    // Never reported: offline, every state unknown.
    await lock(null);
    // Unregistered devices are not monitored, whatever their last runtime data said.
    await lock(
      { online: true, doorState: 'open', lockState: 'open', battery: 5, runState: 'damaged' },
      false,
    );

    const response = await summary();
    expectOk(response);
    expect(response.body.data).toEqual({
      total: 5,
      online: 2,
      offline: 3,
      doorOpen: 2,
      lockOpen: 1,
      lowBattery: 1,
      abnormal: 2,
    });

    const counted = response.body.data;
    expect(await pageTotal({})).toBe(counted.total);
    expect(await pageTotal({ online: 'true' })).toBe(counted.online);
    expect(await pageTotal({ online: 'false' })).toBe(counted.offline);
    expect(await pageTotal({ doorState: 'open' })).toBe(counted.doorOpen);
    expect(await pageTotal({ lockState: 'open' })).toBe(counted.lockOpen);
    expect(await pageTotal({ batteryBand: 'low' })).toBe(counted.lowBattery);
    const abnormal = await Promise.all(
      (['damaged', 'lowPower', 'timeOutNotClosed'] as const).map((runState) => pageTotal({ runState })),
    );
    expect(abnormal.reduce((sum, total) => sum + total, 0)).toBe(counted.abnormal);
  });

  it('reads the battery bands of the power levels, the fixed ones again once none is left', async () => {
    // The devices of the test above: battery 19.5, 20 and 80 % (and one unknown).
    const levels = [
      { level: 1, startValue: 0, endValue: 25, availableDays: 7, state: 'lowPower' as const },
      { level: 2, startValue: 25, endValue: 70, availableDays: 90, state: 'normal' as const },
      { level: 3, startValue: 70, endValue: 100, availableDays: 365, state: 'normal' as const },
    ];
    const ids: string[] = [];
    for (const level of levels) {
      const saved = await t.call(api.powerLevel.save, { body: level, token: await admin() });
      expectOk(saved);
      ids.push(saved.body.data.id);
    }
    const bands = await get(api.powerLevel.batteryBands);
    expectOk(bands);
    expect(bands.body.data).toEqual({ lowBelow: 25, highFrom: 70, fromLevels: true });
    const counted = await summary();
    expect(counted.body.data.lowBattery).toBe(2);
    expect(await pageTotal({ batteryBand: 'low' })).toBe(2);
    expect(await pageTotal({ batteryBand: 'medium' })).toBe(0);
    expect(await pageTotal({ batteryBand: 'high' })).toBe(1);

    for (const id of ids) expectOk(await get(api.powerLevel.del, { id }));
    expect((await get(api.powerLevel.batteryBands)).body.data).toEqual({
      lowBelow: 20,
      highFrom: 60,
      fromLevels: false,
    });
    expect((await summary()).body.data.lowBattery).toBe(1);
    expect(await pageTotal({ batteryBand: 'medium' })).toBe(1);
  });

  it('finds by an operation unit or a type the devices below it too, as the ledger does', async () => {
    const line = await insertUnitRow(t.db);
    const station = await insertUnitRow(t.db, undefined, line);
    const padlocks = await insertDeviceTypeRow(t.db);
    const nbPadlock = await insertDeviceTypeRow(t.db, { parentId: padlocks });
    await insertDeviceRow(t.db, { unitId: station, typeId: nbPadlock, regist: true });
    const queries: Record<string, string>[] = [
      { unitId: line },
      { unitId: station },
      { typeId: padlocks },
      { typeId: nbPadlock },
      { unitId: line, typeId: padlocks },
    ];
    for (const query of queries) {
      expect(await pageTotal(query), JSON.stringify(query)).toBe(1);
    }
    expect(await pageTotal({ unitId: line, typeId })).toBe(0);
  });

  it('is for holders of the monitor key only', async () => {
    const monitor = await t.createStaff({ permissions: [Permission.MonitorRead] });
    expectOk(await summary(await t.signIn(monitor.name, monitor.password)));
    const other = await t.createStaff({ permissions: [Permission.DeviceRead] });
    expectCode(await summary(await t.signIn(other.name, other.password)), ResultCode.Forbidden);
  });
});
