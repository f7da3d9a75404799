import {
  ALL_ENDPOINTS,
  api,
  devTypeOpKey,
  type Endpoint,
  isMutating,
  Permission,
  type PermissionKey,
  ResultCode,
  translateResult,
} from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { device, devicePassword } from '../src/modules/devices/devices.schema.ts';
import { type CallResult, openTestApp, type TestApp, type TestStaff, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectOk, orgHelpers } from './support/org.ts';

/**
 * The endpoints of the devices, IoT and commands modules that change something and do not act on a
 * physical device: they keep the register (the ledger, types, units, keys, passwords) and need no DevTypeOp
 * grant. docs/security.md lists the same decisions; a new endpoint of these modules must be added to one
 * list or the other (the test below fails until it is).
 */
const NOT_DEVICE_OPERATIONS: Record<string, string> = {
  '/unit/save': 'operation units',
  '/unit/update': 'operation units',
  '/unit/del': 'operation units',
  '/unit/import': 'operation units',
  '/deviceType/save': 'the type catalogue',
  '/deviceType/update': 'the type catalogue',
  '/deviceType/del': 'the type catalogue',
  '/deviceType/updateInterval': 'the online rule of a type, not a device',
  '/device/save': 'a new ledger record',
  '/device/update': 'ledger data; a change of type asks for the grants of both types (tested below)',
  '/device/del': 'only an unregistered device, which has no credential',
  '/device/batchSave': 'new ledger records',
  '/device/import': 'new ledger records and lock codes',
  '/device/saveAttachment': 'ledger data',
  '/device/updateAttachment': 'ledger data',
  '/device/delAttachment': 'ledger data',
  '/lockCode/save': 'ledger data',
  '/lockCode/update': 'ledger data',
  '/lockCode/del': 'ledger data',
  '/adjustValue/save': 'ledger data',
  '/adjustValue/update': 'ledger data',
  '/adjustValue/del': 'ledger data',
  '/key/save': 'electronic keys, not locks',
  '/key/update': 'electronic keys, not locks',
  '/key/del': 'electronic keys, not locks',
  '/key/import': 'electronic keys, not locks',
  '/devicePassword/view': 'reading the ledger (devicePassword.view, logged)',
  '/devicePassword/save': 'stored in the ledger; only the lock replacement sends it down',
};

const DEVICE_MODULES = new Set(['devices', 'iot', 'commands']);
const operating = ALL_ENDPOINTS.filter((e) => e.operatesDevice);

describe.each(databases)(
  'finding: device-type operation grants (DevTypeOp) have no effect ($kind)',
  (kind) => {
    let t: TestApp;
    const { admin, get, post, tokenOf } = orgHelpers(() => t);
    let unitId: string;
    /** A main type with a sub type; the devices operated are of the sub type. */
    let mainType: string;
    let subType: string;
    let subTypeName: string;
    let otherType: string;

    beforeAll(async () => {
      t = await openTestApp(kind);
      unitId = await insertUnitRow(t.db);
      mainType = await insertDeviceTypeRow(t.db, { category: 'Elec' });
      subTypeName = uniqueName('Padlock');
      subType = await insertDeviceTypeRow(t.db, { name: subTypeName, parentId: mainType, category: 'Elec' });
      otherType = await insertDeviceTypeRow(t.db, { category: 'Elec' });
      await t.setParam('ShowResetImei', 'true');
    });
    afterAll(async () => {
      await t?.close();
    });

    let imeis = 200_000_000_000_000;
    const lock = (values: { regist?: boolean; code?: boolean; imei?: boolean; typeId?: string } = {}) => {
      imeis += 1;
      return insertDeviceRow(t.db, {
        unitId,
        typeId: values.typeId ?? subType,
        regist: values.regist ?? false,
        code: values.code ? uniqueName('DTO') : null,
        imei: values.imei ? String(imeis) : null,
      });
    };

    interface Request {
      query?: Record<string, string>;
      body?: unknown;
    }
    interface Case {
      /** The key the endpoint declares. */
      key: PermissionKey;
      /** A fresh request on devices of the sub type, and what shows it did nothing when refused. */
      prepare(): Promise<{ request: Request; untouched?: () => Promise<void> }>;
    }

    const registOf = async (id: string) =>
      (await t.db.select({ regist: device.regist }).from(device).where(eq(device.id, id)))[0]!.regist;

    /** Every endpoint the contract marks `operatesDevice`, with a request that acts on a device. */
    const CASES: Record<string, Case> = {
      '/device/regist': {
        key: Permission.DeviceRegister,
        prepare: async () => {
          const id = await lock({ code: true });
          return {
            request: { query: { id } },
            untouched: async () => expect(await registOf(id)).toBe(false),
          };
        },
      },
      '/device/cancelRegist': {
        key: Permission.DeviceUnregister,
        prepare: async () => {
          const id = await lock({ regist: true });
          return { request: { query: { id } }, untouched: async () => expect(await registOf(id)).toBe(true) };
        },
      },
      '/device/resetSecret': {
        key: Permission.DeviceRegister,
        prepare: async () => ({ request: { query: { id: await lock({ regist: true, code: true }) } } }),
      },
      '/device/resetPinSecret': {
        key: Permission.DeviceRegister,
        prepare: async () => ({ request: { query: { id: await lock({ regist: true }) } } }),
      },
      '/device/resetImei': {
        key: Permission.DeviceResetImei,
        prepare: async () => {
          const id = await lock({ imei: true });
          const imeiOf = async () =>
            (await t.db.select({ imei: device.imei }).from(device).where(eq(device.id, id)))[0]!.imei;
          return { request: { query: { id } }, untouched: async () => expect(await imeiOf()).not.toBeNull() };
        },
      },
      '/deviceCommand/sendParam': {
        key: Permission.DeviceCommandSend,
        prepare: async () => ({
          request: {
            body: { kind: 'value', deviceId: await lock({ regist: true }), name: 'volume', value: '3' },
          },
        }),
      },
      '/lockReplacement/start': {
        key: Permission.DeviceReplaceLock,
        prepare: async () => ({
          request: { body: { deviceId: await lock({ regist: true }), replacementId: await lock() } },
        }),
      },
      '/lockReplacement/proceed': {
        key: Permission.DeviceReplaceLock,
        prepare: async () => {
          const old = await lock({ regist: true });
          await t.db.insert(devicePassword).values({ deviceId: old, password: '246810' });
          const started = await post(api.lockReplacement.start, {
            deviceId: old,
            replacementId: await lock(),
          });
          expectOk(started);
          return {
            request: { body: { id: started.body.data.id } },
            untouched: async () => expect(await registOf(old)).toBe(true),
          };
        },
      },
    };

    const endpointOf = (path: string) => operating.find((e) => e.path === path)!;
    const send = async (endpoint: Endpoint, request: Request, token: string) =>
      t.call(endpoint, {
        token,
        lang: 'en',
        ...(request.query ? { query: request.query } : {}),
        ...(request.body === undefined ? {} : { body: request.body }),
      });

    const expectNotOperable = (response: CallResult<unknown>) => {
      expect(
        { status: response.status, code: response.body.code, message: response.body.message },
        JSON.stringify(response.body),
      ).toEqual({
        status: 403,
        code: ResultCode.DeviceTypeNotOperable,
        message: translateResult(ResultCode.DeviceTypeNotOperable, 'en', { type: subTypeName }),
      });
    };

    /** A user holding `key` through a role, and the DevTypeOp keys given as grants of its own. */
    async function operator(key: PermissionKey, typeKeys: string[] = []) {
      const user = await t.createStaff({
        permissions: [...new Set([key, Permission.DeviceRead, Permission.MonitorRead])],
      });
      await grantTypes(user, typeKeys);
      return { user, token: await tokenOf(user) };
    }
    async function grantTypes(user: TestStaff, keys: string[]) {
      expectOk(await post(api.permission.saveGrants, { subjectType: 'Staff', subjectId: user.id, keys }));
    }

    it('covers every endpoint the contract marks as operating a device, and no other', () => {
      expect(Object.keys(CASES).sort()).toEqual(operating.map((e) => e.path).sort());
    });

    it('has decided, for every changing endpoint of the device modules, whether it operates a device', () => {
      const undecided = ALL_ENDPOINTS.filter(
        (e) => DEVICE_MODULES.has(e.module) && isMutating(e) && e.access !== 'public' && !e.operatesDevice,
      )
        .map((e) => e.path)
        .filter((path) => !(path in NOT_DEVICE_OPERATIONS));
      expect(undecided).toEqual([]);
      for (const path of Object.keys(NOT_DEVICE_OPERATIONS)) {
        expect(ALL_ENDPOINTS.find((e) => e.path === path)?.operatesDevice, path).toBeFalsy();
      }
    });

    describe.each(Object.keys(CASES))('%s', (path) => {
      const { key, prepare } = CASES[path]!;
      const endpoint = () => endpointOf(path);

      it('refuses a holder of its key without the DevTypeOp grant: 403, naming the type', async () => {
        const { token } = await operator(key);
        const { request, untouched } = await prepare();
        expectNotOperable(await send(endpoint(), request, token));
        await untouched?.();
      });

      it('refuses a holder of the grant of another type or of a sibling sub type only', async () => {
        const sibling = await insertDeviceTypeRow(t.db, { parentId: mainType, category: 'Elec' });
        const { token } = await operator(key, [devTypeOpKey(otherType), devTypeOpKey(sibling)]);
        const { request } = await prepare();
        expectNotOperable(await send(endpoint(), request, token));
      });

      it('allows it with the grant of the main type (covering its sub types), and refuses it once removed', async () => {
        const { user, token } = await operator(key, [devTypeOpKey(mainType)]);
        const allowed = await send(endpoint(), (await prepare()).request, token);
        expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
        expect(allowed.body.code, JSON.stringify(allowed.body)).toBe(ResultCode.Ok);

        await grantTypes(user, []);
        const { request, untouched } = await prepare();
        expectNotOperable(await send(endpoint(), request, token));
        await untouched?.();
      });
    });

    it('allows the grant of the sub type itself, and role admin without any grant', async () => {
      const { token } = await operator(Permission.DeviceRegister, [devTypeOpKey(subType)]);
      expectOk(await send(endpointOf('/device/regist'), { query: { id: await lock() } }, token));
      expectOk(await send(endpointOf('/device/regist'), { query: { id: await lock() } }, await admin()));
    });

    it("lets a ledger editor change a device's type only with the grants of both types", async () => {
      const typeOf = async (id: string) =>
        (await t.db.select({ typeId: device.typeId }).from(device).where(eq(device.id, id)))[0]!.typeId;
      const edit = (id: string, typeId: string, token: string) =>
        send(api.device.update, { body: { id, name: uniqueName('Lock'), unitId, typeId } }, token);
      const registered = await lock({ regist: true });
      // Holding only the type it would get does not give the grants of the type it has (finding: its
      // secrets were then reset under the new type's grant).
      const intoOwn = await operator(Permission.DeviceUpdate, [devTypeOpKey(otherType)]);
      expectNotOperable(await edit(registered, otherType, intoOwn.token));
      expect(await typeOf(registered)).toBe(subType);
      const fromOwn = await operator(Permission.DeviceUpdate, [devTypeOpKey(mainType)]);
      const refused = await edit(registered, otherType, fromOwn.token);
      expect({ status: refused.status, code: refused.body.code }).toEqual({
        status: 403,
        code: ResultCode.DeviceTypeNotOperable,
      });
      expect(await typeOf(registered)).toBe(subType);
      // An edit that keeps the type is a ledger change and needs no grant.
      expectOk(await edit(registered, subType, (await operator(Permission.DeviceUpdate)).token));
      const both = await operator(Permission.DeviceUpdate, [devTypeOpKey(mainType), devTypeOpKey(otherType)]);
      expectOk(await edit(registered, otherType, both.token));
      expect(await typeOf(registered)).toBe(otherType);
      expectOk(await edit(registered, subType, await admin()));
    });

    it('answers each ledger and runtime row with whether the reader may operate its device', async () => {
      const registered = await lock({ regist: true });
      const other = await lock({ regist: true, typeId: otherType });
      const { user, token } = await operator(Permission.DeviceRead, [devTypeOpKey(mainType)]);
      const abilitiesIn = async (reader: string) => {
        const ledger = await get(api.device.queryPage, { pageSize: '100' }, reader);
        const runtime = await get(api.runtime.queryPage, { pageSize: '100' }, reader);
        const one = await get(api.device.getById, { id: registered }, reader);
        const detail = await get(api.runtime.getByDeviceId, { deviceId: registered }, reader);
        const of = (
          rows: { id?: string; deviceId?: string; abilities: { operate: boolean } }[],
          id: string,
        ) => rows.find((row) => (row.id ?? row.deviceId) === id)?.abilities.operate;
        return {
          ledger: [of(ledger.body.data.rows, registered), of(ledger.body.data.rows, other)],
          runtime: [of(runtime.body.data.rows, registered), of(runtime.body.data.rows, other)],
          one: one.body.data.abilities.operate,
          detail: detail.body.data?.abilities.operate,
        };
      };
      expect(await abilitiesIn(token)).toEqual({
        ledger: [true, false],
        runtime: [true, false],
        one: true,
        detail: true,
      });
      expect(await abilitiesIn(await admin())).toEqual({
        ledger: [true, true],
        runtime: [true, true],
        one: true,
        detail: true,
      });
      await grantTypes(user, []);
      expect(await abilitiesIn(token)).toEqual({
        ledger: [false, false],
        runtime: [false, false],
        one: false,
        detail: false,
      });
    });
  },
);
