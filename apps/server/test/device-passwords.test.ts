import { api, type Endpoint, Permission, ResultCode } from '@uiot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { devicePassword } from '../src/modules/devices/devices.schema.ts';
import { completedOpLogs, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

describe.each(databases)('permanent device passwords ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, tokenOf } = orgHelpers(() => t);
  let typeId: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    typeId = await insertDeviceTypeRow(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (query: Record<string, string>, token?: string) => {
    const response = await get(api.devicePassword.queryPage, query, token);
    expectOk(response);
    return response.body.data;
  };
  const view = async (deviceId: string, token?: string) => {
    const response = await get(api.devicePassword.view, { deviceId }, token);
    expectOk(response);
    return response.body.data.password;
  };
  const lockIn = (unitId: string, values: { name?: string; imei?: string; mainDeviceId?: string } = {}) =>
    insertDeviceRow(t.db, { unitId, typeId, ...values });

  it('are listed per main device without the password, viewed and set', async () => {
    const tag = uniqueName('Pw');
    const unitName = uniqueName('Unit');
    const unit = await insertUnitRow(t.db, unitName);
    const lock = await lockIn(unit, { name: `${tag} gate`, imei: '861234567890123' });
    await lockIn(unit, { name: `${tag} attached`, mainDeviceId: lock });

    const before = await page({ keyword: tag });
    expect(before).toMatchObject({
      total: 1,
      rows: [
        {
          deviceId: lock,
          deviceName: `${tag} gate`,
          unitName,
          imei: '861234567890123',
          regist: false,
          hasPassword: false,
          updatedBy: null,
          updatedAt: null,
        },
      ],
    });
    expect(await view(lock)).toBeNull();

    expectOk(await post(api.devicePassword.save, { deviceId: lock, password: '70809010' }));
    const after = (await page({ keyword: tag })).rows[0]!;
    expect(after).toMatchObject({ hasPassword: true, updatedBy: 'admin' });
    expect(Number.isNaN(Date.parse(after.updatedAt!))).toBe(false);
    expect(JSON.stringify(after)).not.toContain('70809010');
    expect(Object.keys(after)).not.toContain('password');
    expect(await view(lock)).toBe('70809010');

    expectOk(await post(api.devicePassword.save, { deviceId: lock, password: ' 987654 ' }));
    expect(await view(lock)).toBe('987654');
    expect(await t.db.select().from(devicePassword).where(eq(devicePassword.deviceId, lock))).toHaveLength(1);
  });

  it('take 6 to 12 digits only', async () => {
    const lock = await lockIn(await insertUnitRow(t.db));
    for (const password of ['12345', '1234567890123', '12345a', 'abcdef', '123 456', '']) {
      const response = await post(api.devicePassword.save, { deviceId: lock, password }, undefined, 'en');
      expectInvalid(response, ['password']);
      if (password) expect(JSON.stringify(response.body)).not.toContain(password);
    }
    const wrong = await post(api.devicePassword.save, { deviceId: lock, password: '12345' }, undefined, 'en');
    expect(wrong.body.data).toEqual([
      { path: 'password', message: 'A permanent password is 6 to 12 digits' },
    ]);
    for (const password of ['123456', '123456789012']) {
      expectOk(await post(api.devicePassword.save, { deviceId: lock, password }));
      expect(await view(lock)).toBe(password);
    }
  });

  it('answer 404 for an unknown device', async () => {
    expectCode(await get(api.devicePassword.view, { deviceId: 'no-such-device' }), ResultCode.NotFound);
    expectCode(
      await post(api.devicePassword.save, { deviceId: 'no-such-device', password: '123456' }),
      ResultCode.NotFound,
    );
  });

  it('are searched by name or imei, unit (with the units below) and whether set, and sorted', async () => {
    const tag = uniqueName('Find');
    const line = await insertUnitRow(t.db, uniqueName('Line'));
    const station = await insertUnitRow(t.db, uniqueName('Station'), line);
    const other = await insertUnitRow(t.db, uniqueName('Other'));
    const a = await lockIn(station, { name: `${tag} A`, imei: '860000000000001' });
    const b = await lockIn(line, { name: `${tag} B` });
    const c = await lockIn(other, { name: `${tag} C` });
    const byImei = await lockIn(other, { name: uniqueName('Imei'), imei: '862222222222222' });
    expectOk(await post(api.devicePassword.save, { deviceId: b, password: '555555' }));

    const ids = async (query: Record<string, string>) =>
      (await page({ sort: 'deviceName', ...query })).rows.map((r) => r.deviceId);
    expect(await ids({ keyword: tag.toLowerCase() })).toEqual([a, b, c]);
    expect(await ids({ keyword: '860000000000001' })).toEqual([a]);
    expect(await ids({ keyword: '22222222' })).toEqual([byImei]);
    expect(await ids({ keyword: tag, unitId: line })).toEqual([a, b]);
    expect(await ids({ keyword: tag, unitId: station })).toEqual([a]);
    expect(await ids({ keyword: tag, hasPassword: 'true' })).toEqual([b]);
    expect(await ids({ keyword: tag, hasPassword: 'false' })).toEqual([a, c]);
    expect(await ids({ keyword: tag, ascending: 'false' })).toEqual([c, b, a]);
    for (const sort of [
      'deviceName',
      'unitName',
      'typeName',
      'imei',
      'regist',
      'hasPassword',
      'updatedBy',
      'updatedAt',
    ]) {
      expect((await page({ keyword: tag, sort })).total).toBe(3);
    }
    expect((await page({ keyword: tag, sort: 'hasPassword', ascending: 'false' })).rows[0]!.deviceId).toBe(b);
    expectInvalid(await get(api.devicePassword.queryPage, { sort: 'password' }), ['sort']);
  });

  it('never reach the operation log', async () => {
    const unit = await insertUnitRow(t.db);
    const lock = await lockIn(unit);
    const user = await t.createStaff({
      permissions: [
        Permission.DevicePasswordRead,
        Permission.DevicePasswordView,
        Permission.DevicePasswordUpdate,
      ],
    });
    const token = await tokenOf(user);
    const secret = '80604020';
    expectOk(await post(api.devicePassword.save, { deviceId: lock, password: secret }, token));
    expect(await view(lock, token)).toBe(secret);

    const rowsAt = (endpoint: Endpoint) =>
      completedOpLogs(t.db, and(eq(opLog.userId, user.id), eq(opLog.url, urlOf(endpoint))));
    const [saved] = await rowsAt(api.devicePassword.save);
    const [viewed] = await rowsAt(api.devicePassword.view);
    expect(saved).toMatchObject({ userName: user.name, resultCode: ResultCode.Ok });
    expect(saved!.methodArgs).toContain(lock);
    expect(viewed!.methodArgs).toContain(lock);
    for (const row of [saved, viewed]) expect(JSON.stringify(row)).not.toContain(secret);
    expect((await page({ unitId: unit }, token)).rows[0]).toMatchObject({
      hasPassword: true,
      updatedBy: user.name,
    });
  });

  it('show the password only to holders of devicePassword.view', async () => {
    const lock = await lockIn(await insertUnitRow(t.db));
    expectOk(await post(api.devicePassword.save, { deviceId: lock, password: '246810' }));
    const reader = await tokenOf(
      await t.createStaff({ permissions: [Permission.DevicePasswordRead, Permission.DevicePasswordUpdate] }),
    );
    expect((await page({}, reader)).total).toBeGreaterThan(0);
    const refused = await get(api.devicePassword.view, { deviceId: lock }, reader);
    expectCode(refused, ResultCode.Forbidden);
    expect(JSON.stringify(refused.body)).not.toContain('246810');
    const nobody = await tokenOf(await t.createStaff());
    expectCode(await get(api.devicePassword.queryPage, {}, nobody), ResultCode.Forbidden);
    expectCode(
      await post(api.devicePassword.save, { deviceId: lock, password: '135790' }, nobody),
      ResultCode.Forbidden,
    );
  });
});
