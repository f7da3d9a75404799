import { api, type EndpointBody, Permission, ResultCode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

let digits = 100_000_000_000_000;
/** A fresh 15-digit IMEI. */
function freshImei(): string {
  digits += 1;
  return String(digits);
}

describe.each(databases)('device ledger ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, postRaw, createDepartment, staffIn, tokenOf } = orgHelpers(() => t);
  let unitId: string;
  let typeId: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    unitId = await insertUnitRow(t.db);
    typeId = await insertDeviceTypeRow(t.db, { category: 'LC' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const form = <X extends object>(extra: X = {} as X) => ({
    name: uniqueName('Lock'),
    unitId,
    typeId,
    ...extra,
  });
  const save = async (extra: object = {}) => {
    const response = await post(api.device.save, form(extra));
    expectOk(response);
    return response.body.data.id;
  };
  const byId = async (id: string) => {
    const response = await get(api.device.getById, { id });
    expectOk(response);
    return response.body.data;
  };
  const page = async (query: Record<string, string>) => {
    const response = await get(api.device.queryPage, { pageSize: '100', ...query });
    expectOk(response);
    return response.body.data;
  };

  it('saves every field and reads it back with the names it refers to', async () => {
    const mainType = await insertDeviceTypeRow(t.db, { name: uniqueName('Main'), category: 'Elec' });
    const subType = await insertDeviceTypeRow(t.db, {
      code: uniqueName('SUB'),
      parentId: mainType,
      category: 'LC',
    });
    const deptId = await createDepartment(uniqueName('Dept'));
    const holder = await staffIn(deptId);
    const full = {
      name: uniqueName('Full'),
      unitId,
      typeId: subType,
      code: uniqueName('C'),
      sbbh: 'SB-1',
      adCode: '810000',
      bayId: 'bay-7',
      lng: 114.1234567,
      lat: '-22.5',
      isDrawTool: true,
      status: 'lowPower',
      category: 'IoT',
      voltage: '3.6V',
      deptId,
      staffId: holder.id,
      desc: 'Depot gate',
      extra1: 'x1',
      extra2: 'x2',
      graphId: 'g-1',
      idxNo: 12,
      imei: freshImei(),
      imsi: '460001234567890',
      appKey: 'key-1',
      iotType: 'ChinaMobile',
      netType: 'LoRaWan',
      noState: true,
      noWorking: true,
      addr: 'Platform 2',
      secondId: 'S2',
      kmInfo: 'K12+300',
      line: 'East Rail',
      track: 'UP',
      door: 'D4',
      appEUI: '70b3d57ed0000001',
      devEUI: '00AA11BB22CC33DD',
      productId: 'P-1',
      platName: 'plat',
    } satisfies EndpointBody<typeof api.device.save>;
    // "No state" is accepted only while NoState is on (spec §6, see feature-flags.test.ts).
    await t.setParam('NoState', 'true');
    const saved = await post(api.device.save, full).finally(() => t.setParam('NoState', 'false'));
    expectOk(saved);
    const row = await byId(saved.body.data.id);
    expect(row).toMatchObject({
      ...full,
      lat: -22.5,
      appEUI: '70B3D57ED0000001',
      stationId: DEFAULT_STATION.id,
      typeName: expect.any(String),
      devTypeCode: expect.stringMatching(/^SUB_/),
      mainTypeId: mainType,
      deptName: expect.stringMatching(/^Dept_/),
      staffName: holder.name,
      lockStatus: 'unknown',
      mainDeviceId: null,
      regist: false,
      registTime: null,
      camera: null,
      preSet: null,
      attachmentCount: 0,
    });
    expect(row.mainTypeName).toMatch(/^Main_/);
    expect(row.unitName).toMatch(/^Unit_/);
    expect(Date.parse(row.createdAt)).not.toBeNaN();

    const mainRow = await byId(await save({ typeId: mainType }));
    expect(mainRow).toMatchObject({ mainTypeId: mainType, category: 'Elec', lng: null, deptName: null });

    expectOk(
      await post(api.device.update, { ...full, id: row.id, name: 'Renamed', lng: '', category: null }),
    );
    expect(await byId(row.id)).toMatchObject({ name: 'Renamed', lng: null, category: 'LC', code: full.code });
  });

  it("refuses to change a registered device's code, DevEUI or IMEI, which its lock is known by", async () => {
    const code = uniqueName('REG');
    const id = await save({ code });
    expectOk(await get(api.device.regist, { id }));
    expectInvalid(await post(api.device.update, form({ id, code: `${code}-X` })), ['code']);
    expectInvalid(
      await post(api.device.update, form({ id, code, imei: '860000000000017', devEUI: 'A1B2C3D4E5F60719' })),
      ['devEUI', 'imei'],
    );
    expect(await byId(id)).toMatchObject({ code, imei: null, devEUI: null });
    expectOk(await post(api.device.update, form({ id, code, name: 'Renamed while registered' })));
    expectOk(await get(api.device.cancelRegist, { id }));
    expectOk(await post(api.device.update, form({ id, code: `${code}-X` })));
  });

  it('needs a name, an operation unit and a type that exist', async () => {
    expectInvalid(await postRaw(api.device.save, { name: '' }), ['name', 'unitId', 'typeId']);
    expectInvalid(
      await post(
        api.device.save,
        form({ unitId: 'no-unit', typeId: 'no-type', deptId: 'no', staffId: 'no' }),
      ),
      ['unitId', 'typeId', 'deptId', 'staffId'],
    );
    expectInvalid(await post(api.device.save, form({ typeId: 'no-type' })), ['typeId']);
    expectCode(await post(api.device.update, { ...form(), id: 'no-such-device' }), ResultCode.NotFound);
    expectCode(await get(api.device.getById, { id: 'no-such-device' }), ResultCode.NotFound);
  });

  it('answers format rules as field errors and upper-cases LoRaWAN identifiers', async () => {
    const cases: [object, string][] = [
      [{ lng: 180.00000001 }, 'lng'],
      [{ lng: '180.00000001' }, 'lng'],
      [{ lng: '-181' }, 'lng'],
      [{ lat: 90.1 }, 'lat'],
      [{ lat: 'north' }, 'lat'],
      [{ imei: '12345678901234' }, 'imei'],
      [{ imei: '1234567890123456' }, 'imei'],
      [{ imei: '12345678901234x' }, 'imei'],
      [{ devEUI: '00AA11BB22CC33D' }, 'devEUI'],
      [{ devEUI: '00AA11BB22CC33DG' }, 'devEUI'],
      [{ appEUI: 'zz' }, 'appEUI'],
    ];
    for (const [extra, path] of cases) {
      expectInvalid(await post(api.device.save, form(extra)), [path]);
    }
    const response = await post(api.device.save, form({ lng: 'x', lat: 91, imei: '1' }), undefined, 'en');
    expect(response.body.data).toEqual(
      expect.arrayContaining([
        { path: 'lng', message: 'Longitude must be between -180 and 180 with at most 7 decimals' },
        { path: 'imei', message: 'The IMEI must be exactly 15 digits' },
      ]),
    );

    const id = await save({ lng: '180.0000000', lat: -90, devEUI: 'abcdef0123456789' });
    expect(await byId(id)).toMatchObject({ lng: 180, lat: -90, devEUI: 'ABCDEF0123456789' });
  });

  it('keeps codes, IMEIs and devEUIs unique over the ledger (1103)', async () => {
    const code = uniqueName('CODE');
    const imei = freshImei();
    const devEUI = '1234567890ABCDEF';
    const first = await save({ code, imei, devEUI });
    const taken = await post(api.device.save, form({ code }), undefined, 'en');
    expectCode(taken, ResultCode.CodeTaken);
    expect(taken.body.message).toBe(`"${code}" is already in use`);
    expectCode(await post(api.device.save, form({ imei })), ResultCode.CodeTaken);
    expectCode(await post(api.device.save, form({ devEUI: devEUI.toLowerCase() })), ResultCode.CodeTaken);
    // Its own identifiers do not stand in a device's way.
    expectOk(await post(api.device.update, form({ id: first, code, imei, devEUI })));
    const other = await save();
    expectCode(await post(api.device.update, form({ id: other, imei })), ResultCode.CodeTaken);
    // An attached device's IMEI is taken too.
    expectCode(
      await post(api.device.saveAttachment, { mainDeviceId: other, name: 'Sensor', typeId, imei }),
      ResultCode.CodeTaken,
    );

    const contested = uniqueName('RACE');
    const answers = await Promise.all([
      post(api.device.save, form({ code: contested })),
      post(api.device.save, form({ code: contested })),
    ]);
    expect(answers.map((r) => r.body.code).sort((a, b) => a - b)).toEqual([
      ResultCode.Ok,
      ResultCode.CodeTaken,
    ]);
  });

  it('adds a numbered batch in one go, refusing 0 and more than 500', async () => {
    const batchUnit = await insertUnitRow(t.db);
    const response = await post(api.device.batchSave, {
      namePrefix: 'Gate-',
      descPrefix: 'Door-',
      count: 3,
      unitId: batchUnit,
      typeId,
      iotType: 'TcpDirect',
    });
    expectOk(response);
    const ids = response.body.data.ids;
    expect(ids).toHaveLength(3);
    const rows = await Promise.all(ids.map(byId));
    expect(rows.map((r) => [r.name, r.desc, r.category, r.iotType, r.regist])).toEqual([
      ['Gate-1', 'Door-1', 'LC', 'TcpDirect', false],
      ['Gate-2', 'Door-2', 'LC', 'TcpDirect', false],
      ['Gate-3', 'Door-3', 'LC', 'TcpDirect', false],
    ]);
    expect((await page({ unitId: batchUnit })).total).toBe(3);

    const batch = { namePrefix: 'N', descPrefix: 'D', unitId: batchUnit, typeId };
    expectInvalid(await post(api.device.batchSave, { ...batch, count: 0 }), ['count']);
    expectInvalid(await post(api.device.batchSave, { ...batch, count: 501 }), ['count']);
    expectInvalid(await postRaw(api.device.batchSave, { count: 2, unitId: batchUnit, typeId }), [
      'namePrefix',
      'descPrefix',
    ]);
    expectInvalid(await post(api.device.batchSave, { ...batch, count: 2, unitId: 'no-unit' }), ['unitId']);
    expect((await page({ unitId: batchUnit })).total).toBe(3);
  });

  it('keeps a device that has records: its commands are not deleted with it (1119)', async () => {
    const id = await save();
    await t.db.insert(deviceCommand).values({
      deviceId: id,
      cmdCode: 'open',
      name: 'open (remote)',
      expireTime: new Date(Date.now() + 60_000),
      maxRetransmit: 3,
    });
    const refused = await t.call(api.device.del, { query: { id }, token: await admin(), lang: 'en' });
    expectCode(refused, ResultCode.DeviceHasRecords);
    expect(refused.status).toBe(200);
    expect((await byId(id)).id).toBe(id);
    expect(await t.db.select().from(deviceCommand).where(eq(deviceCommand.deviceId, id))).toHaveLength(1);
  });

  it('deletes a device only once unregistered (1110, 1111, 1112)', async () => {
    const id = await save();
    expectOk(await get(api.device.regist, { id }));
    const registered = await byId(id);
    expect(registered.regist).toBe(true);
    expect(Date.parse(registered.registTime!)).not.toBeNaN();
    expectCode(await get(api.device.regist, { id }), ResultCode.DeviceAlreadyRegistered);

    const refused = await t.call(api.device.del, { query: { id }, token: await admin(), lang: 'en' });
    expectCode(refused, ResultCode.DeviceRegistered);
    expect(refused.body.message).toBe('A registered device cannot be deleted; unregister it first');

    expectOk(await get(api.device.cancelRegist, { id }));
    expect(await byId(id)).toMatchObject({ regist: false, registTime: null });
    expectCode(await get(api.device.cancelRegist, { id }), ResultCode.DeviceNotRegistered);
    expectOk(await get(api.device.del, { id }));
    expectCode(await get(api.device.getById, { id }), ResultCode.NotFound);
    expectCode(await get(api.device.del, { id }), ResultCode.NotFound);
    expectCode(await get(api.device.regist, { id }), ResultCode.NotFound);
  });

  it('resets the IMEI only when ShowResetImei is on and the device is unregistered', async () => {
    const id = await save({ imei: freshImei(), imsi: '46000123' });
    const off = await t.call(api.device.resetImei, {
      query: { id },
      token: await admin(),
      lang: 'en',
    });
    expectCode(off, ResultCode.FeatureDisabled);
    expect(off.body.message).toBe('This function is switched off (parameter ShowResetImei)');

    await t.setParam('ShowResetImei', 'true');
    try {
      expectOk(await get(api.device.regist, { id }));
      expectCode(await get(api.device.resetImei, { id }), ResultCode.UnregisterFirst);
      expectOk(await get(api.device.cancelRegist, { id }));
      expectOk(await get(api.device.resetImei, { id }));
      expect(await byId(id)).toMatchObject({ imei: null, imsi: null });
      expectCode(await get(api.device.resetImei, { id: 'no-such-device' }), ResultCode.NotFound);
    } finally {
      await t.setParam('ShowResetImei', 'false');
    }
  });

  it('searches main devices by text, unit with its sub-units, type with its sub types and state', async () => {
    const top = await insertUnitRow(t.db);
    const middle = await insertUnitRow(t.db, uniqueName('Unit'), top);
    const leaf = await insertUnitRow(t.db, uniqueName('Unit'), middle);
    const elsewhere = await insertUnitRow(t.db);
    const main = await insertDeviceTypeRow(t.db);
    const sub = await insertDeviceTypeRow(t.db, { parentId: main });
    const a = await insertDeviceRow(t.db, { unitId: top, typeId: main, name: 'Alpha gate' });
    const b = await insertDeviceRow(t.db, {
      unitId: middle,
      typeId: sub,
      name: 'Bravo',
      code: uniqueName('BR'),
    });
    const c = await insertDeviceRow(t.db, { unitId: leaf, typeId: sub, name: 'Charlie', regist: true });
    const imei = freshImei();
    await insertDeviceRow(t.db, { unitId: elsewhere, typeId: sub, name: 'Delta', imei });
    await insertDeviceRow(t.db, { unitId: leaf, typeId: sub, name: 'Attached', mainDeviceId: c });

    const ids = async (query: Record<string, string>) => (await page(query)).rows.map((r) => r.id);
    expect(await ids({ unitId: top })).toEqual([a, b, c]);
    expect(await ids({ unitId: middle })).toEqual([b, c]);
    expect(await ids({ unitId: top, typeId: sub })).toEqual([b, c]);
    expect(await ids({ typeId: main })).toHaveLength(4);
    expect(await ids({ unitId: top, regist: 'true' })).toEqual([c]);
    expect(await ids({ unitId: top, regist: 'false' })).toEqual([a, b]);
    expect(await ids({ unitId: top, keyword: 'GATE' })).toEqual([a]);
    expect(await ids({ keyword: imei })).toHaveLength(1);
    expect(await ids({ unitId: top, keyword: 'br_' })).toEqual([b]);
    expect(await ids({ unitId: top, keyword: '%' })).toEqual([]);
    expect(await ids({ unitId: top, category: 'Elec' })).toEqual([]);
    expect(await ids({ unitId: top, category: 'IoT' })).toEqual([a, b, c]);
    expect((await page({ unitId: leaf })).rows[0]).toMatchObject({ id: c, attachmentCount: 1 });
  });

  it('sorts by every column in both directions', async () => {
    const sortUnit = await insertUnitRow(t.db);
    const values = [
      { name: 'SORT-B', code: uniqueName('K2'), idxNo: 3, lng: 10.5, imei: freshImei() },
      { name: 'SORT-C', code: uniqueName('K1'), idxNo: 1, lng: 100, imei: freshImei() },
      { name: 'SORT-A', code: uniqueName('K3'), idxNo: 2, lng: -5, imei: freshImei() },
    ];
    const ids: string[] = [];
    for (const v of values) ids.push(await save({ ...v, unitId: sortUnit }));
    await t.db.update(device).set({ regist: true }).where(eq(device.id, ids[1]!));
    expectOk(await post(api.device.saveAttachment, { mainDeviceId: ids[2]!, name: 'Extra', typeId }));

    const sorted = async (sort: string, ascending: boolean) =>
      (await page({ unitId: sortUnit, sort, ascending: String(ascending) })).rows.map((r) => r.id);
    const [b, c, a] = ids as [string, string, string];
    expect((await page({ unitId: sortUnit })).rows.map((r) => r.id)).toEqual([a, b, c]);
    for (const [sort, ascendingOrder] of [
      ['name', [a, b, c]],
      ['code', [c, b, a]],
      ['idxNo', [c, a, b]],
      ['lng', [a, b, c]],
      ['imei', [b, c, a]],
      ['createdAt', [b, c, a]],
    ] as const) {
      expect(await sorted(sort, true), `${sort} ascending`).toEqual(ascendingOrder);
      expect(await sorted(sort, false), `${sort} descending`).toEqual([...ascendingOrder].reverse());
    }
    // One device stands out; the other two tie and keep an order of their own.
    for (const [sort, single] of [
      ['attachmentCount', a],
      ['regist', c],
    ] as const) {
      expect((await sorted(sort, true))[2], `${sort} ascending`).toBe(single);
      expect((await sorted(sort, false))[0], `${sort} descending`).toBe(single);
    }
    for (const sort of [
      'unitName',
      'typeName',
      'devTypeCode',
      'mainTypeName',
      'deptName',
      'staffName',
      'desc',
    ]) {
      expect((await sorted(sort, false)).sort(), sort).toEqual([...ids].sort());
    }
    expectInvalid(await get(api.device.queryPage, { sort: 'password' }), ['sort']);
  });

  it('hangs attached devices under a main device only, in its unit', async () => {
    const mainId = await save();
    const attached = await post(api.device.saveAttachment, {
      mainDeviceId: mainId,
      name: 'Door sensor',
      typeId,
      imei: freshImei(),
      imsi: '4600',
      iotType: 'ChinaTelecom',
    });
    expectOk(attached);
    const attachmentId = attached.body.data.id;
    const list = await get(api.device.queryAttachments, { mainDeviceId: mainId });
    expectOk(list);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: attachmentId,
        mainDeviceId: mainId,
        name: 'Door sensor',
        category: 'LC',
        iotType: 'ChinaTelecom',
        typeName: expect.any(String),
      }),
    ]);
    expect(await byId(mainId)).toMatchObject({ attachmentCount: 1 });
    expect((await page({ keyword: 'Door sensor' })).total).toBe(0);

    // Attached devices follow their main device: no registration, no place of their own.
    expectCode(await get(api.device.regist, { id: attachmentId }), ResultCode.NotAMainDevice);
    expectCode(
      await post(api.device.saveAttachment, { mainDeviceId: attachmentId, name: 'x', typeId }),
      ResultCode.NotAMainDevice,
    );
    expectCode(
      await post(api.device.saveAttachment, { mainDeviceId: 'no-such-device', name: 'x', typeId }),
      ResultCode.NotAMainDevice,
    );
    expectCode(await post(api.device.update, form({ id: attachmentId })), ResultCode.NotAMainDevice);
    expectCode(await get(api.device.del, { id: attachmentId }), ResultCode.NotAMainDevice);
    expectCode(await get(api.device.delAttachment, { id: mainId }), ResultCode.NotFound);

    const newUnit = await insertUnitRow(t.db);
    const mainRow = await byId(mainId);
    expectOk(await post(api.device.update, form({ id: mainId, name: mainRow.name, unitId: newUnit })));
    expect((await byId(attachmentId)).unitId).toBe(newUnit);

    expectOk(
      await post(api.device.updateAttachment, {
        id: attachmentId,
        mainDeviceId: mainId,
        name: 'Door sensor 2',
        typeId,
        category: 'Elec',
      }),
    );
    expect(await byId(attachmentId)).toMatchObject({ name: 'Door sensor 2', category: 'Elec', imei: null });

    expectCode(await get(api.device.del, { id: mainId }), ResultCode.DeviceHasAttachments);
    expectOk(await get(api.device.delAttachment, { id: attachmentId }));
    expectOk(await get(api.device.del, { id: mainId }));

    await t.setParam('SupportAttachment', 'false');
    try {
      const other = await save();
      expectCode(await get(api.device.queryAttachments, { mainDeviceId: other }), ResultCode.FeatureDisabled);
      expectCode(
        await post(api.device.saveAttachment, { mainDeviceId: other, name: 'x', typeId }),
        ResultCode.FeatureDisabled,
      );
    } finally {
      await t.setParam('SupportAttachment', 'true');
    }
  });

  it('keeps an operation unit with devices (1102), after the sub-unit rule', async () => {
    const parent = await insertUnitRow(t.db);
    const child = await insertUnitRow(t.db, uniqueName('Unit'), parent);
    const id = await save({ unitId: child });
    await save({ unitId: parent });
    expectCode(await get(api.unit.del, { id: parent }), ResultCode.UnitHasChildren);
    const refused = await t.call(api.unit.del, {
      query: { id: child },
      token: await admin(),
      lang: 'en',
    });
    expectCode(refused, ResultCode.UnitHasDevices);
    expect(refused.body.message).toBe('This operation unit has devices and cannot be deleted');
    expectOk(await get(api.device.del, { id }));
    expectOk(await get(api.unit.del, { id: child }));
  });

  it('needs the device keys', async () => {
    const reader = await t.createStaff({ permissions: [Permission.DeviceRead] });
    const token = await tokenOf(reader);
    expectOk(await get(api.device.queryPage, {}, token));
    expectCode(await post(api.device.save, form(), token), ResultCode.Forbidden);
    expectCode(await get(api.device.regist, { id: 'x' }, token), ResultCode.Forbidden);
  });
});
