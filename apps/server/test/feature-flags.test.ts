import {
  ALL_ENDPOINTS,
  api,
  type Endpoint,
  type Envelope,
  FEATURE_FLAGS,
  type FeatureSwitch,
  ResultCode,
  translateResult,
} from '@uiot/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { uploadFile } from './support/files.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';
import { sampleBody, sampleQuery } from './support/sample-input.ts';
import { fillTemplate } from './support/workbooks.ts';

const DEFAULTS = Object.fromEntries(FEATURE_FLAGS.map((f) => [f.name, f.defVal]));
/** The endpoints that belong to a feature, by each of their flags. */
const gated = ALL_ENDPOINTS.filter((e) => e.features?.length);
const gatedBy = (flag: FeatureSwitch) => gated.filter((e) => e.features?.includes(flag));
const flagsOfEndpoints = [...new Set(gated.flatMap((e) => e.features ?? []))].sort();
const named = (endpoints: Endpoint[]) => endpoints.map((e) => [`${e.method} ${e.path}`, e] as const);

describe.each(databases)('finding: feature flags that nothing reads ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, tokenOf } = orgHelpers(() => t);
  let unitId: string;
  let elecType: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    unitId = await insertUnitRow(t.db);
    elecType = await insertDeviceTypeRow(t.db, { category: 'Elec' });
  });
  afterAll(async () => {
    await t?.close();
  });
  // Every test switches what it needs; the next one starts from the defaults.
  afterEach(async () => {
    for (const flag of FEATURE_FLAGS) await t.setParam(flag.name, flag.defVal);
  });

  const switchOff = (...flags: FeatureSwitch[]) =>
    Promise.all(flags.map((flag) => t.setParam(flag, 'false')));
  const expectDisabled = (response: Awaited<ReturnType<typeof get>>, flag: FeatureSwitch) => {
    expectCode(response, ResultCode.FeatureDisabled);
    expect(response.body.message).toBe(translateResult(ResultCode.FeatureDisabled, 'zh-CN', { name: flag }));
  };
  /** Calls an endpoint with a request built from its schemas; a file (template, export) is not an envelope. */
  const callAs = async (endpoint: Endpoint, token: string) => {
    const response = await t.app.inject({
      method: endpoint.method,
      url: `/api${endpoint.path}`,
      query: sampleQuery(endpoint, { allProperties: true }),
      headers: { authorization: `Bearer ${token}` },
      ...(endpoint.method === 'POST'
        ? { payload: (sampleBody(endpoint, { allProperties: true }) ?? {}) as object }
        : {}),
    });
    let body: Envelope<unknown> = { success: true, data: null, code: ResultCode.Ok, message: '' };
    try {
      body = response.json<Envelope<unknown>>();
    } catch {
      // A file answered: the call got past the gate.
    }
    return { status: response.statusCode, headers: response.headers, body };
  };
  const menusOf = async (token?: string) => (await get(api.auth.getUserInfo, {}, token)).body.data.menus;

  describe('every endpoint that belongs to a feature (the class)', () => {
    it('gates the endpoints of the IoT pages, commands, keys and the ledger tabs', () => {
      expect(flagsOfEndpoints).toEqual([
        'ShowCmd',
        'ShowKeyInfo',
        'ShowResetImei',
        'SupportAdjustValue',
        'SupportAttachment',
        'SupportIoT',
        'SupportRfid',
      ]);
      expect(gatedBy('SupportIoT').map((e) => e.path)).toEqual(
        expect.arrayContaining(
          [
            api.runtime.queryPage,
            api.runtime.summary,
            api.deviceHistory.queryPage,
            api.deviceCommand.queryPage,
            api.deviceCommand.sendParam,
            api.device.resetSecret,
          ].map((e) => e.path),
        ),
      );
      expect(
        gatedBy('ShowCmd')
          .map((e) => e.path)
          .sort(),
      ).toEqual([api.deviceCommand.queryPage, api.deviceCommand.sendParam].map((e) => e.path));
      expect(
        gatedBy('ShowKeyInfo')
          .map((e) => e.path)
          .sort(),
      ).toEqual(
        [
          api.key.del,
          api.key.import,
          api.key.importTemplate,
          api.key.queryPage,
          api.key.save,
          api.key.update,
        ].map((e) => e.path),
      );
    });

    describe.each(flagsOfEndpoints)('%s off', (flag) => {
      it.each(named(gatedBy(flag)))(
        '%s answers FeatureDisabled naming it, even to the admin',
        async (_n, e) => {
          const token = await admin();
          await switchOff(flag);
          expectDisabled(await callAs(e, token), flag);
        },
      );
    });

    it('lets the endpoints past the gate while their features are on', async () => {
      await t.setParam('ShowResetImei', 'true');
      const token = await admin();
      for (const endpoint of gated) {
        const response = await callAs(endpoint, token);
        expect(response.body.code, `${endpoint.path}: ${JSON.stringify(response.body)}`).not.toBe(
          ResultCode.FeatureDisabled,
        );
      }
    });

    it('refuses a caller without the key as such, whatever the flags', async () => {
      const token = await tokenOf(await t.createStaff());
      await switchOff('ShowCmd', 'SupportIoT', 'ShowKeyInfo');
      for (const endpoint of gated) expectCode(await callAs(endpoint, token), ResultCode.Forbidden);
    });
  });

  describe('SupportIoT', () => {
    it('takes the runtime monitor, telemetry, command records and intervals out of the menus', async () => {
      const iotPages = ['Monitor', 'MonitorRuntime', 'MonitorRuntimeDetail', 'IotMessage', 'DeviceCommand'];
      expect(await menusOf()).toEqual(expect.arrayContaining([...iotPages, 'IntervalManage']));
      await switchOff('SupportIoT');
      const menus = await menusOf();
      for (const page of [...iotPages, 'IntervalManage']) expect(menus).not.toContain(page);
      expect(menus).toEqual(expect.arrayContaining(['DeviceLedger', 'KeyLedger']));
      const right = await get(api.auth.queryMenuRight);
      expect(right.body.data.menus).not.toContain('MonitorRuntime');
    });

    it('refuses to register an IoT lock but registers a lock without IoT', async () => {
      await switchOff('SupportIoT');
      const iotLock = await insertDeviceRow(t.db, { unitId, typeId: elecType });
      expectDisabled(await get(api.device.regist, { id: iotLock }), 'SupportIoT');
      const plain = await post(api.device.save, {
        name: uniqueName('Plain'),
        unitId,
        typeId: elecType,
      });
      expectOk(plain);
      expectOk(await get(api.device.regist, { id: plain.body.data.id }));
    });

    it('does not accept the IoT fields of a device, but keeps them through an edit', async () => {
      const form = { name: uniqueName('Lock'), unitId, typeId: elecType, imei: '861234567890001' };
      const saved = await post(api.device.save, form);
      expectOk(saved);
      await switchOff('SupportIoT');
      expectDisabled(
        await post(api.device.save, { ...form, name: uniqueName('Lock'), imei: '861234567890002' }),
        'SupportIoT',
      );
      expectDisabled(
        await post(api.device.save, {
          name: uniqueName('Lock'),
          unitId,
          typeId: elecType,
          netType: 'LoRaWan',
        }),
        'SupportIoT',
      );
      const id = saved.body.data.id;
      expectOk(await post(api.device.update, { ...form, id, name: uniqueName('Renamed') }));
      expectDisabled(await post(api.device.update, { ...form, id, imei: null }), 'SupportIoT');
      expectDisabled(
        await post(api.device.batchSave, {
          namePrefix: 'B',
          descPrefix: 'b',
          count: 1,
          unitId,
          typeId: elecType,
          iotType: 'ChinaMobile',
        }),
        'SupportIoT',
      );
    });

    it('refuses a lock replacement whose replacement is an IoT lock', async () => {
      const old = await insertDeviceRow(t.db, { unitId, typeId: elecType, regist: true });
      const replacement = await insertDeviceRow(t.db, { unitId, typeId: elecType });
      await switchOff('SupportIoT');
      expectDisabled(
        await post(api.lockReplacement.start, { deviceId: old, replacementId: replacement }),
        'SupportIoT',
      );
    });
  });

  describe('imports of the ledger', () => {
    /** The device (or lock code) template as downloaded, filled with these rows. */
    const workbook = async (kind: 'device' | 'lockCode', rows: Record<string, unknown>[]) => {
      const template = await t.app.inject({
        method: 'GET',
        url: urlOf(api.device.importTemplate),
        query: { kind },
        headers: { authorization: `Bearer ${await admin()}` },
      });
      return fillTemplate(template.rawPayload, rows);
    };
    /** An import of the ledger: the workbook uploaded (kind import), then named by its id. */
    const importLedger = async (kind: 'device' | 'lockCode', file: Buffer) =>
      post(api.device.import, { kind, fileId: await uploadFile(t, await admin(), 'import', file) });

    it('refuse devices with IoT fields while SupportIoT is off, as the dialog does', async () => {
      const unitName = uniqueName('ImportUnit');
      await insertUnitRow(t.db, unitName);
      const typeCode = uniqueName('IMP');
      await insertDeviceTypeRow(t.db, { code: typeCode, category: 'Elec' });
      const row = { name: uniqueName('Imported'), unitPath: unitName, typeCode };
      const withImei = await workbook('device', [{ ...row, imei: '861234567890077' }]);
      await switchOff('SupportIoT');
      expectDisabled(await importLedger('device', withImei), 'SupportIoT');
      expectOk(await importLedger('device', await workbook('device', [row])));
    });

    it('refuse lock codes while SupportRfid is off', async () => {
      const file = await workbook('lockCode', [{ device: 'no-such-device', rfid: 'ABCDEF012345' }]);
      await switchOff('SupportRfid');
      expectDisabled(await importLedger('lockCode', file), 'SupportRfid');
    });
  });

  describe('NoState', () => {
    it('accepts "no state" only while it is on, and keeps it through an edit once off', async () => {
      const form = { name: uniqueName('Lock'), unitId, typeId: elecType, noState: true };
      expectDisabled(await post(api.device.save, form), 'NoState');
      expectOk(await post(api.device.save, { ...form, noState: false }));

      await t.setParam('NoState', 'true');
      const saved = await post(api.device.save, form);
      expectOk(saved);
      const id = saved.body.data.id;

      await switchOff('NoState');
      expectOk(await post(api.device.update, { ...form, id, name: uniqueName('Renamed') }));
      expectDisabled(await post(api.device.update, { ...form, id, noState: false }), 'NoState');
      const other = await post(api.device.save, {
        ...form,
        name: uniqueName('L'),
        noState: false,
      });
      expectDisabled(await post(api.device.update, { ...form, id: other.body.data.id }), 'NoState');
    });
  });

  describe('ShowCmd', () => {
    it('takes the remote control records out of the menus and refuses the send, the monitor staying', async () => {
      await switchOff('ShowCmd');
      const menus = await menusOf();
      expect(menus).not.toContain('DeviceCommand');
      expect(menus).toEqual(expect.arrayContaining(['MonitorRuntime', 'IotMessage']));
      expectDisabled(await get(api.deviceCommand.queryPage, { pageIndex: '1', pageSize: '10' }), 'ShowCmd');
      expectDisabled(
        await post(api.deviceCommand.sendParam, { kind: 'value', deviceId: 'x', name: 'volume', value: '1' }),
        'ShowCmd',
      );
      expectOk(await get(api.runtime.queryPage, { pageIndex: '1', pageSize: '10' }));
    });
  });

  describe('ShowKeyInfo', () => {
    it('takes the key ledger out of the menus and refuses its endpoints', async () => {
      expect(await menusOf()).toContain('KeyLedger');
      await switchOff('ShowKeyInfo');
      expect(await menusOf()).not.toContain('KeyLedger');
      expectDisabled(await get(api.key.queryPage, { pageIndex: '1', pageSize: '10' }), 'ShowKeyInfo');
      expectDisabled(
        await post(api.key.save, { name: uniqueName('Key'), code: uniqueName('K') }),
        'ShowKeyInfo',
      );
    });
  });

  describe('HomePageType', () => {
    it('reaches every signed-in user as it is set, a bad value too (the console shows the spec error)', async () => {
      const token = await tokenOf(await t.createStaff());
      const flags = async () => (await get(api.system.getFeatureFlags, {}, token)).body.data;
      expect((await flags()).HomePageType).toBe(DEFAULTS.HomePageType);
      await t.setParam('HomePageType', 'device');
      expect((await flags()).HomePageType).toBe('device');
      await t.setParam('HomePageType', 'no-such-layout');
      expect((await flags()).HomePageType).toBe('no-such-layout');
    });
  });
});
