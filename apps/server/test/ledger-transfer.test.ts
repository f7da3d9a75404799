import { api, type Endpoint, type ImportError, Permission, ResultCode, XLSX_MIME } from '@uiot/contracts';
import { count, eq, inArray, isNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { device, lockCode, lockKey, operationUnit } from '../src/modules/devices/devices.schema.ts';
import { openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { emptyWorkbook, PNG, uploadFile, uploadParts } from './support/files.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';
import { fillTemplate, headerKeys, type SheetRow } from './support/workbooks.ts';

type Row = SheetRow;

function headerTitles(sheet: ExcelJS.Worksheet): string[] {
  const titles: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => {
    titles[col - 1] = String(cell.value);
  });
  return titles;
}

async function readWorkbook(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook.worksheets[0]!;
}

/** The data rows of a sheet by column key. */
function dataRows(sheet: ExcelJS.Worksheet): Row[] {
  const keys = headerKeys(sheet);
  const rows: Row[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    rows.push(Object.fromEntries(keys.map((key, i) => [key, row.getCell(i + 1).value])));
  });
  return rows;
}

const fill = fillTemplate;

describe.each(databases)('ledger import and export ($kind)', (kind) => {
  let t: TestApp;
  const { admin, post: postJson, postRaw, createDepartment } = orgHelpers(() => t);
  /**
   * Imports: the workbook is uploaded first (kind import) by the same user, then named by its id. The body
   * is the contract's with the workbook in place of its id, or a wrong one on purpose.
   */
  const post = async <E extends Endpoint>(
    endpoint: E,
    body: { file?: Buffer; [field: string]: unknown },
    token?: string,
    lang?: string,
  ) => {
    const { file, ...rest } = body;
    if (!file) return postRaw(endpoint, body, token, lang);
    const fileId = await uploadFile(t, token ?? (await admin()), 'import', file);
    return postRaw(endpoint, { ...rest, fileId }, token, lang);
  };

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A file answer: status, headers and the bytes. */
  const download = async (
    endpoint: Endpoint,
    query: Record<string, string> = {},
    lang = 'en',
    token?: string,
  ) => {
    const response = await t.app.inject({
      method: 'GET',
      url: urlOf(endpoint),
      query,
      headers: { authorization: `Bearer ${token ?? (await admin())}`, 'accept-language': lang },
    });
    return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
  };

  const template = async (endpoint: Endpoint, query: Record<string, string> = {}, lang = 'en') => {
    const file = await download(endpoint, query, lang);
    expect(file.status).toBe(200);
    return file.bytes;
  };

  const deviceCount = async () => (await t.db.select({ n: count() }).from(device))[0]!.n;

  const importErrors = (response: { body: { data: unknown } }) => response.body.data as ImportError[];

  it('offers templates with the header only, titled in the language asked, keyed in the notes', async () => {
    const en = await download(api.device.importTemplate, { kind: 'device' }, 'en');
    expect(en.status).toBe(200);
    expect(en.headers['content-type']).toBe(XLSX_MIME);
    expect(en.headers['content-disposition']).toBe(
      `attachment; filename="device-template.xlsx"; filename*=UTF-8''device-template.xlsx`,
    );
    const enSheet = await readWorkbook(en.bytes);
    expect(enSheet.rowCount).toBe(1);
    expect(headerTitles(enSheet).slice(0, 5)).toEqual([
      'Name *',
      'Operation unit path *',
      'Device type code *',
      'Device code',
      'IMEI',
    ]);
    expect(headerKeys(enSheet).slice(0, 4)).toEqual(['name', 'unitPath', 'typeCode', 'code']);

    const zh = await download(api.device.importTemplate, { kind: 'device' }, 'zh-CN');
    expect(zh.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('设备导入模板.xlsx')}`,
    );
    const zhSheet = await readWorkbook(zh.bytes);
    expect(zhSheet.name).toBe('设备');
    expect(headerTitles(zhSheet).slice(0, 4)).toEqual([
      '名称 *',
      '操作单元路径 *',
      '设备类型编码 *',
      '设备编码',
    ]);
    expect(headerKeys(zhSheet)).toEqual(headerKeys(enSheet));

    expect(headerTitles(await readWorkbook(await template(api.unit.importTemplate, {}, 'zh-CN')))).toEqual([
      '名称 *',
      '上级单元路径',
      '菜单名称',
      '排序',
      '类型',
      '描述',
    ]);
    expect(headerTitles(await readWorkbook(await template(api.key.importTemplate, {}, 'en')))).toEqual([
      'Name *',
      'Key code *',
      'Staff',
      'Department',
      'Description',
    ]);
    const lockSheet = await readWorkbook(
      await template(api.device.importTemplate, { kind: 'lockCode' }, 'zh-TW'),
    );
    expect(headerTitles(lockSheet).slice(0, 2)).toEqual(['設備編碼或名稱 *', 'RFID 卡號 *']);
  });

  it('is for holders of the import keys only', async () => {
    const reader = await t.createStaff({ permissions: [Permission.DeviceRead] });
    const token = await t.signIn(reader.name, reader.password);
    const file = await download(api.device.importTemplate, { kind: 'device' }, 'en', token);
    expect(JSON.parse(file.bytes.toString()).code).toBe(ResultCode.Forbidden);
    const body = { kind: 'device', file: await fill(await template(api.unit.importTemplate), []) };
    expectCode(await post(api.device.import, body, token), ResultCode.Forbidden);
  });

  describe('devices', () => {
    let line: string;
    let station: string;
    let typeCode: string;
    let deptName: string;
    let staffName: string;
    let deviceTemplate: Buffer;

    beforeAll(async () => {
      line = uniqueName('Line');
      const lineId = await insertUnitRow(t.db, line);
      station = 'Station A';
      await insertUnitRow(t.db, station, lineId);
      typeCode = uniqueName('LOCK');
      await insertDeviceTypeRow(t.db, { code: typeCode, category: 'Elec' });
      deptName = uniqueName('Maintenance');
      await createDepartment(deptName);
      staffName = (await t.createStaff()).name;
      deviceTemplate = await template(api.device.importTemplate, { kind: 'device' }, 'zh-TW');
    });

    it('refuses a file with errors, listing every one, and writes nothing (1140)', async () => {
      await insertDeviceRow(t.db, {
        unitId: await insertUnitRow(t.db),
        typeId: await insertDeviceTypeRow(t.db),
        code: 'TAKEN-1',
      });
      const unitPath = `${line}/${station}`;
      const file = await fill(deviceTemplate, [
        { name: 'Good', unitPath, typeCode, code: 'DUP-1', imei: '861234567890123' },
        { name: 'Bad imei', unitPath, typeCode, imei: '86123456789012' },
        { name: 'Nowhere', unitPath: `${line}/Station Z`, typeCode },
        { name: 'Dup', unitPath, typeCode, code: 'DUP-1' },
        { unitPath, typeCode, lng: 180.00000001 },
        { name: 'Taken', unitPath, typeCode: 'no-such-type', code: 'TAKEN-1', iotType: 'Pigeon' },
      ]);
      const before = await deviceCount();
      const response = await post(api.device.import, { kind: 'device', file }, undefined, 'en');
      expectCode(response, ResultCode.ImportInvalid);
      expect(response.body.message).toBe('The file has 8 errors; nothing was imported');
      expect(importErrors(response)).toEqual([
        { row: 3, column: 'IMEI', message: 'The IMEI must be exactly 15 digits' },
        { row: 4, column: 'Operation unit path', message: 'No operation unit has this path' },
        { row: 5, column: 'Device code', message: 'Same as row 2' },
        { row: 6, column: 'Name', message: 'This field is required' },
        {
          row: 6,
          column: 'Longitude',
          message: 'Longitude must be between -180 and 180 with at most 7 decimals',
        },
        { row: 7, column: 'Device type code', message: 'No device type has this code' },
        { row: 7, column: 'Device code', message: 'Already exists in the system' },
        {
          row: 7,
          column: 'IoT platform',
          message: 'Use one of: ChinaTelecom, ChinaUnicom, ChinaMobile, TcpDirect',
        },
      ]);
      expect(await deviceCount()).toBe(before);

      const zh = await post(api.device.import, { kind: 'device', file }, undefined, 'zh-CN');
      expect(zh.body.message).toBe('文件有 8 处错误，未导入任何数据');
      expect(importErrors(zh)[0]).toEqual({ row: 3, column: 'IMEI', message: 'IMEI 须为 15 位数字' });
    });

    it('refuses a file without a required column, or without rows', async () => {
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('x').addRow(['Name', 'IMEI']).commit();
      workbook.worksheets[0]!.addRow(['Lock', '861234567890123']);
      const file = Buffer.from(await workbook.xlsx.writeBuffer());
      const response = await post(api.device.import, { kind: 'device', file }, undefined, 'en');
      expectCode(response, ResultCode.ImportInvalid);
      expect(importErrors(response)).toEqual([
        { row: 1, column: 'Operation unit path', message: 'This column is missing from the file' },
        { row: 1, column: 'Device type code', message: 'This column is missing from the file' },
      ]);
      const empty = await post(api.device.import, { kind: 'device', file: await fill(deviceTemplate, []) });
      expectCode(empty, ResultCode.ImportInvalid);
      expect(importErrors(empty)).toHaveLength(1);
    });

    it('refuses, by content, what is not an xlsx workbook, and a workbook that is not a template (1141)', async () => {
      const token = await admin();
      const csv = Buffer.from('name,imei\nLock,861234567890123\n');
      for (const bytes of [csv, Buffer.from('PK\x03\x04nonsense'), PNG]) {
        const refused = await uploadParts(t, token, 'import', [
          { name: 'devices.xlsx', bytes, type: XLSX_MIME },
        ]);
        expect(refused.status).toBe(415);
        expect(refused.body).toMatchObject({
          code: ResultCode.FileTypeRefused,
          message: expect.stringContaining('XLSX'),
        });
      }
      const blank = await emptyWorkbook();
      expectCode(await post(api.device.import, { kind: 'device', file: blank }), ResultCode.ImportUnreadable);
      expectCode(await post(api.unit.import, { file: blank }), ResultCode.ImportUnreadable);
      expectCode(await post(api.key.import, { file: blank }), ResultCode.ImportUnreadable);
    });

    it("uses up the upload it names: never twice, never another user's, never a file of another kind (1173)", async () => {
      const file = await fill(await template(api.unit.importTemplate), []);
      const fileId = await uploadFile(t, await admin(), 'import', file);
      expectCode(await postJson(api.unit.import, { fileId }), ResultCode.ImportInvalid);
      expectCode(await postJson(api.unit.import, { fileId }), ResultCode.FileUnavailable);

      const other = await t.createStaff({ permissions: [Permission.UnitImport] });
      const otherToken = await t.signIn(other.name, other.password);
      const theirs = await uploadFile(t, otherToken, 'import', file);
      expectCode(await postJson(api.unit.import, { fileId: theirs }), ResultCode.FileUnavailable);
      expectCode(await postJson(api.unit.import, { fileId: theirs }, otherToken), ResultCode.ImportInvalid);

      const signature = await uploadFile(t, await admin(), 'signature', PNG);
      expectCode(await postJson(api.unit.import, { fileId: signature }), ResultCode.FileUnavailable);
      expectCode(
        await postJson(api.unit.import, { fileId: crypto.randomUUID() }),
        ResultCode.FileUnavailable,
      );
    });

    it('writes every row of a good file, as unregistered main devices in their unit', async () => {
      const prefix = uniqueName('B');
      const rows = Array.from({ length: 1200 }, (_, i) => ({
        name: `${prefix}-${i + 1}`,
        unitPath: ` ${line.toUpperCase()} / station a `,
        typeCode: typeCode.toLowerCase(),
        code: `${prefix}-C${i + 1}`,
        imei: String(860000000000000 + i),
        lng: i % 2 === 0 ? 113 + i / 10_000 : null,
        lat: i % 2 === 0 ? '22.5' : null,
        iotType: 'chinamobile',
        deptName: i === 0 ? deptName : null,
        staffName: i === 0 ? staffName : null,
        devEUI: i === 0 ? 'a1b2c3d4e5f60718' : null,
      }));
      const before = await deviceCount();
      const response = await post(api.device.import, {
        kind: 'device',
        file: await fill(deviceTemplate, rows),
      });
      expectOk(response);
      expect(response.body.data).toEqual({ imported: 1200 });
      expect(await deviceCount()).toBe(before + 1200);

      const [first] = await t.db
        .select()
        .from(device)
        .where(eq(device.code, `${prefix}-C1`));
      const [stationRow] = await t.db.select().from(operationUnit).where(eq(operationUnit.id, first!.unitId));
      expect(stationRow!.name).toBe(station);
      expect(first).toMatchObject({
        name: `${prefix}-1`,
        imei: '860000000000000',
        lng: '113.0000000',
        lat: '22.5000000',
        category: 'Elec',
        iotType: 'ChinaMobile',
        regist: false,
        mainDeviceId: null,
        stationId: stationRow!.stationId,
        devEui: 'A1B2C3D4E5F60718',
      });
      expect(first!.deptId).not.toBeNull();
      expect(first!.staffId).not.toBeNull();
    });

    it('exports every matching device, streamed, and a page when asked', async () => {
      const mainDevices = (
        await t.db.select({ n: count() }).from(device).where(isNull(device.mainDeviceId))
      )[0]!.n;
      expect(mainDevices).toBeGreaterThan(1200);
      const all = await download(api.device.export, {}, 'zh-CN');
      expect(all.status).toBe(200);
      expect(all.headers['content-type']).toBe(XLSX_MIME);
      expect(all.headers['content-disposition']).toMatch(
        /^attachment; filename="device-ledger_\d{8}-\d{6}\.xlsx"; filename\*=UTF-8''/,
      );
      const sheet = await readWorkbook(all.bytes);
      expect(headerTitles(sheet).slice(0, 4)).toEqual([
        '名称 *',
        '操作单元路径 *',
        '设备类型编码 *',
        '设备类型',
      ]);
      const rows = dataRows(sheet);
      expect(rows).toHaveLength(mainDevices);
      const names = rows.map((r) => String(r.name));
      expect(new Set(rows.map((r) => `${r.name}|${r.code}`)).size).toBe(rows.length);
      // The ledger page's order (name, then id).
      const firstPage = await t.call(api.device.queryPage, {
        query: { pageIndex: '1', pageSize: '100' },
        token: await admin(),
      });
      expectOk(firstPage);
      expect(names.slice(0, 100)).toEqual(firstPage.body.data.rows.map((r) => r.name));

      const imported = rows.find((r) => r.deptName === deptName)!;
      expect(imported).toMatchObject({
        unitPath: `${line}/${station}`,
        typeCode,
        category: 'Elec',
        iotType: 'ChinaMobile',
        staffName,
        devEUI: 'A1B2C3D4E5F60718',
        regist: '未注册',
      });
      expect(imported.lng).toBe(113);
      expect(String(imported.createdAt)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      const page = dataRows(
        await readWorkbook((await download(api.device.export, { pageIndex: '2', pageSize: '7' })).bytes),
      );
      expect(page).toHaveLength(7);
      expect(page.map((r) => r.name)).toEqual(names.slice(7, 14));
    });

    it('exports in the order asked, across chunks, with empty values last ascending and first descending', async () => {
      for (const ascending of [true, false]) {
        const file = await download(api.device.export, { sort: 'lng', ascending: String(ascending) });
        const rows = dataRows(await readWorkbook(file.bytes));
        const lngs = rows.map((r) => (r.lng === null || r.lng === undefined ? null : Number(r.lng)));
        const values = lngs.filter((v): v is number => v !== null);
        const empty = lngs.length - values.length;
        expect(empty).toBeGreaterThan(500);
        expect(values).toEqual([...values].sort((a, b) => (ascending ? a - b : b - a)));
        const emptyAt = ascending ? lngs.slice(values.length) : lngs.slice(0, empty);
        expect(emptyAt.every((v) => v === null)).toBe(true);
        expect(new Set(rows.map((r) => `${r.name}|${r.code}`)).size).toBe(rows.length);
      }
      const unit = await insertUnitRow(t.db);
      const below = await insertUnitRow(t.db, uniqueName('Below'), unit);
      const typeId = await insertDeviceTypeRow(t.db);
      const ids = [
        await insertDeviceRow(t.db, { unitId: unit, typeId }),
        await insertDeviceRow(t.db, { unitId: below, typeId }),
      ];
      await insertDeviceRow(t.db, { unitId: below, typeId, mainDeviceId: ids[0]! });
      const filtered = dataRows(
        await readWorkbook((await download(api.device.export, { unitId: unit })).bytes),
      );
      expect(filtered).toHaveLength(2);
      const bad = await download(api.device.export, { sort: 'nonsense' });
      expect(JSON.parse(bad.bytes.toString()).code).toBe(ResultCode.InvalidInput);
    });

    it('takes an export back after editing it (round trip)', async () => {
      const unit = await insertUnitRow(t.db, uniqueName('Trip'));
      const typeId = await insertDeviceTypeRow(t.db, { code: uniqueName('TRIP') });
      for (let i = 0; i < 3; i++) {
        await insertDeviceRow(t.db, {
          unitId: unit,
          typeId,
          code: uniqueName('RT'),
          imei: String(870000000000000 + i),
        });
      }
      const exported = await download(api.device.export, { unitId: unit }, 'zh-TW');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(exported.bytes as unknown as ExcelJS.Buffer);
      const sheet = workbook.worksheets[0]!;
      const keys = headerKeys(sheet);
      const col = (key: string) => keys.indexOf(key) + 1;
      const prefix = uniqueName('Copy');
      for (let n = 2; n <= 4; n++) {
        const row = sheet.getRow(n);
        row.getCell(col('name')).value = `${prefix}-${n}`;
        row.getCell(col('code')).value = `${prefix}-code-${n}`;
        row.getCell(col('imei')).value = String(880000000000000 + n);
      }
      const file = Buffer.from(await workbook.xlsx.writeBuffer());
      const response = await post(api.device.import, { kind: 'device', file }, undefined, 'en');
      expectOk(response);
      expect(response.body.data).toEqual({ imported: 3 });
      const copies = await t.db.select().from(device).where(eq(device.unitId, unit));
      expect(copies).toHaveLength(6);
      const created = copies.filter((d) => d.name.startsWith(prefix));
      expect(created.map((d) => d.code).sort()).toEqual([2, 3, 4].map((n) => `${prefix}-code-${n}`));
      expect(created.every((d) => d.typeId === typeId && !d.regist)).toBe(true);
    });
  });

  it('imports lock codes onto main devices by code or name, RFIDs upper-cased', async () => {
    const unitId = await insertUnitRow(t.db);
    const typeId = await insertDeviceTypeRow(t.db);
    const byCode = await insertDeviceRow(t.db, { unitId, typeId, code: uniqueName('LC') });
    const name = uniqueName('Gate');
    const byName = await insertDeviceRow(t.db, { unitId, typeId, name });
    const attachedCode = uniqueName('ATT');
    await insertDeviceRow(t.db, { unitId, typeId, code: attachedCode, mainDeviceId: byCode });
    const [codeRow] = await t.db.select({ code: device.code }).from(device).where(eq(device.id, byCode));
    const lockTemplate = await template(api.device.importTemplate, { kind: 'lockCode' }, 'zh-CN');

    const refused = await post(
      api.device.import,
      {
        kind: 'lockCode',
        file: await fill(lockTemplate, [
          { device: attachedCode, rfidCode: 'ABCDEF000001' },
          { device: 'nobody', rfidCode: 'xyz', effect: 'maybe' },
        ]),
      },
      undefined,
      'en',
    );
    expectCode(refused, ResultCode.ImportInvalid);
    expect(importErrors(refused)).toEqual([
      { row: 2, column: 'Device code or name', message: 'Lock codes go on main devices only' },
      { row: 3, column: 'Device code or name', message: 'No device has this code or name' },
      { row: 3, column: 'RFID code', message: 'The card id must be 12 hexadecimal characters' },
      { row: 3, column: 'In effect (yes/no)', message: 'Enter yes or no' },
    ]);

    const response = await post(api.device.import, {
      kind: 'lockCode',
      file: await fill(lockTemplate, [
        { device: codeRow!.code, rfidCode: 'abcdef0000a1', effect: '否', effectiveTime: '2026-03-01 08:00' },
        { device: name, rfidCode: 'abcdef0000a2', blueAddr: 'aa-bb-cc-dd-ee-ff', remark: 'spare' },
      ]),
    });
    expectOk(response);
    expect(response.body.data).toEqual({ imported: 2 });
    const codes = await t.db
      .select()
      .from(lockCode)
      .where(inArray(lockCode.deviceId, [byCode, byName]));
    expect(codes.map((c) => [c.deviceId, c.rfidCode, c.effect]).sort()).toEqual(
      [
        [byCode, 'ABCDEF0000A1', false],
        [byName, 'ABCDEF0000A2', true],
      ].sort(),
    );
    expect(codes.find((c) => c.deviceId === byCode)!.effectiveTime!.toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(codes.find((c) => c.deviceId === byName)!.blueAddr).toBe('AA:BB:CC:DD:EE:FF');

    const again = await post(api.device.import, {
      kind: 'lockCode',
      file: await fill(lockTemplate, [{ device: name, rfidCode: 'ABCDEF0000A2' }]),
    });
    expectCode(again, ResultCode.ImportInvalid);
  });

  it('imports keys, codes unique ignoring case', async () => {
    const deptName = uniqueName('Keys');
    const deptId = await createDepartment(deptName);
    const holder = await t.createStaff();
    const keyTemplate = await template(api.key.importTemplate, {}, 'en');
    const prefix = uniqueName('K');
    const response = await post(api.key.import, {
      file: await fill(keyTemplate, [
        { name: 'Key 1', code: `${prefix}-1`, staffName: holder.name.toUpperCase(), deptName },
        { name: 'Key 2', code: `${prefix}-2`, desc: 'spare' },
      ]),
    });
    expectOk(response);
    expect(response.body.data).toEqual({ imported: 2 });
    const keys = await t.db
      .select()
      .from(lockKey)
      .where(inArray(lockKey.code, [`${prefix}-1`, `${prefix}-2`]));
    expect(keys.find((k) => k.name === 'Key 1')).toMatchObject({ staffId: holder.id, deptId });
    expect(keys.find((k) => k.name === 'Key 2')).toMatchObject({
      staffId: null,
      deptId: null,
      description: 'spare',
    });

    const refused = await post(
      api.key.import,
      { file: await fill(keyTemplate, [{ name: 'Key 3', code: `${prefix}-1`.toLowerCase() }]) },
      undefined,
      'zh-TW',
    );
    expectCode(refused, ResultCode.ImportInvalid);
    expect(importErrors(refused)).toEqual([{ row: 2, column: '鑰匙編碼', message: '系統中已存在' }]);
  });

  it('imports units with nested paths, under units of the tree or of earlier rows', async () => {
    const top = uniqueName('Line');
    const topId = await insertUnitRow(t.db, top);
    await insertUnitRow(t.db, 'Depot', topId);
    const unitTemplate = await template(api.unit.importTemplate, {}, 'zh-CN');

    const refused = await post(
      api.unit.import,
      {
        file: await fill(unitTemplate, [
          { name: 'depot', parentPath: top },
          { name: 'Room', parentPath: `${top}/Later` },
          { name: 'Later', parentPath: top, sortIndex: 'x' },
        ]),
      },
      undefined,
      'en',
    );
    expectCode(refused, ResultCode.ImportInvalid);
    expect(importErrors(refused).map((e) => [e.row, e.column])).toEqual([
      [2, 'Name'],
      [3, 'Parent unit path'],
      [4, 'Order'],
    ]);

    const before = (await t.db.select({ n: count() }).from(operationUnit))[0]!.n;
    const response = await post(api.unit.import, {
      file: await fill(unitTemplate, [
        { name: 'Station A', parentPath: top, sortIndex: 2, menuName: 'A' },
        { name: 'Room 1', parentPath: `${top.toLowerCase()}/station a` },
        { name: 'Cabinet', parentPath: `${top}/Station A/Room 1`, desc: 'deep' },
        { name: uniqueName('Top') },
      ]),
    });
    expectOk(response);
    expect(response.body.data).toEqual({ imported: 4 });
    expect((await t.db.select({ n: count() }).from(operationUnit))[0]!.n).toBe(before + 4);
    const childOf = async (parentId: string) =>
      (await t.db.select().from(operationUnit).where(eq(operationUnit.parentId, parentId)))[0]!;
    const stationRow = (
      await t.db.select().from(operationUnit).where(eq(operationUnit.parentId, topId))
    ).find((u) => u.name === 'Station A');
    const room = await childOf(stationRow!.id);
    const cabinet = await childOf(room.id);
    expect(stationRow).toMatchObject({ parentId: topId, sortIndex: 2, menuName: 'A' });
    expect(room.name).toBe('Room 1');
    expect(cabinet).toMatchObject({ name: 'Cabinet', description: 'deep' });
  });
});
