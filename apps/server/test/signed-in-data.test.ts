import { ALL_ENDPOINTS, accessKeys, api, type Endpoint, Permission, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';
import { injectEndpoint, sampleBody, sampleQuery } from './support/sample-input.ts';

/** What a user without keys reaches: the endpoints that need no key. */
const keyless = ALL_ENDPOINTS.filter((e) => accessKeys(e.access) === null);

// Finding 10 of the security review: params/getByName and getMap gave any parameter, one an administrator
// created included, to every signed-in user, and staff/getAll every staff name and id.
describe.each(databases)(
  'finding 10: no data of others or of the system for just being signed in ($kind)',
  (kind) => {
    let t: TestApp;
    const { get, post, createDepartment, createRole, tokenOf } = orgHelpers(() => t);

    beforeAll(async () => {
      t = await openTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });

    const paramForm = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      valType: 'string' as const,
      val: 's3cr3t-value',
      cls: 'vault',
      editable: true,
      ...extra,
    });

    describe('parameters', () => {
      it('answers a parameter an administrator created only with param.read, or once it is marked public', async () => {
        const name = uniqueName('Vault');
        const created = await post(api.params.save, paramForm(name));
        expectOk(created);
        const nobody = await tokenOf(await t.createStaff());
        const reader = await tokenOf(await t.createStaff({ permissions: [Permission.ParamRead] }));

        expectCode(await get(api.params.getByName, { name }, nobody), ResultCode.Forbidden);
        expect((await get(api.params.getMap, { clzName: 'vault' }, nobody)).body.data).toEqual({});
        expect((await get(api.params.getByName, { name }, reader)).body.data).toBe('s3cr3t-value');
        expect((await get(api.params.getMap, { clzName: 'vault' }, reader)).body.data).toMatchObject({
          [name]: 's3cr3t-value',
        });
        // Without param.read an unknown name is refused alike: no telling which names exist.
        expectCode(await get(api.params.getByName, { name: 'NoSuchParam' }, nobody), ResultCode.Forbidden);
        expect((await get(api.params.getByName, { name: 'NoSuchParam' }, reader)).body.data).toBeNull();

        // Marked public, it is everybody's; the flag is part of the parameter.
        const id = created.body.data.id;
        expectOk(await post(api.params.update, { ...paramForm(name), id, isPublic: true }));
        expect((await get(api.params.getByName, { name }, nobody)).body.data).toBe('s3cr3t-value');
        expect((await get(api.params.getMap, { clzName: 'vault' }, nobody)).body.data).toEqual({
          [name]: 's3cr3t-value',
        });
        expect((await get(api.params.getById, { id })).body.data.isPublic).toBe(true);
        // An update that leaves the flag out keeps it.
        expectOk(await post(api.params.update, { ...paramForm(name), id }));
        expect((await get(api.params.getByName, { name }, nobody)).body.data).toBe('s3cr3t-value');
        expectOk(await post(api.params.update, { ...paramForm(name), id, isPublic: false }));
        expectCode(await get(api.params.getByName, { name }, nobody), ResultCode.Forbidden);
      });

      it('keeps what the console reads before the permissions public: the feature flags and the named settings', async () => {
        const nobody = await tokenOf(await t.createStaff());
        expect((await get(api.params.getByName, { name: 'ChangePwdByFirstLogin' }, nobody)).body.data).toBe(
          'true',
        );
        expect((await get(api.params.getByName, { name: 'StrongPassword' }, nobody)).body.data).toBe('true');
        expect((await get(api.params.getADCode, {}, nobody)).body.data).toBe('810000');
        expect(
          Object.keys((await get(api.params.getMap, { clzName: 'map' }, nobody)).body.data as object),
        ).toEqual(['ADCode', 'LngLat', 'MarkerSearchDistance']);
        const rows = (await get(api.params.getAll)).body.data;
        expect(rows.filter((r) => r.builtIn).every((r) => r.isPublic)).toBe(true);
      });

      it('fixes the public flag of a built-in parameter, and sets it again at every start', async () => {
        const [flag] = (await get(api.params.getAll)).body.data.filter((r) => r.name === 'ShowCmd');
        const form = {
          name: flag!.name,
          valType: flag!.valType,
          val: flag!.val,
          editable: true,
          group: 'feature',
        };
        expectInvalid(await post(api.params.update, { ...form, id: flag!.id, isPublic: false }), [
          'isPublic',
        ]);
        expectOk(await post(api.params.update, { ...form, id: flag!.id, isPublic: true }));
        // A database changed by hand gets the code's flag back at the next start.
        const { param } = await import('../src/modules/params/params.schema.ts');
        await t.db.update(param).set({ isPublic: false });
        await t.services.params.seedDefaults();
        const nobody = await tokenOf(await t.createStaff());
        expect((await get(api.params.getByName, { name: 'ShowCmd' }, nobody)).body.data).toBe(flag!.val);
      });
    });

    it('lists staff, roles and departments only to the pages that choose them', async () => {
      const nobody = await tokenOf(await t.createStaff());
      for (const url of [
        api.staff.getAll,
        api.role.getAll,
        api.department.getTree,
        api.unit.getTree,
        api.deviceType.getTree,
      ]) {
        expectCode(await get(url, {}, nobody), ResultCode.Forbidden);
      }
      const deviceEditor = await tokenOf(await t.createStaff({ permissions: [Permission.DeviceUpdate] }));
      for (const url of [api.staff.getAll, api.department.getTree])
        expectOk(await get(url, {}, deviceEditor));
      // A lock task's writer chooses its operators, departments, auditor, devices and keys.
      for (const key of [Permission.LockTaskCreate, Permission.LockTaskUpdate]) {
        const writer = await tokenOf(await t.createStaff({ permissions: [key] }));
        for (const url of [api.staff.getAll, api.department.getTree]) expectOk(await get(url, {}, writer));
        for (const url of [api.device.queryPage, api.key.queryPage]) {
          expectOk(await get(url, { pageIndex: 1, pageSize: 5 }, writer));
        }
      }
      // Whoever generates offline PINs chooses the lock and the staff member; whoever gives erase codes, the lock.
      const generator = await tokenOf(await t.createStaff({ permissions: [Permission.PinGenerate] }));
      expectOk(await get(api.staff.getAll, {}, generator));
      expectOk(await get(api.device.queryPage, { pageIndex: 1, pageSize: 5 }, generator));
      const revoker = await tokenOf(await t.createStaff({ permissions: [Permission.PinRevoke] }));
      expectOk(await get(api.device.queryPage, { pageIndex: 1, pageSize: 5 }, revoker));
    });

    describe('over every endpoint a user without keys reaches', () => {
      const markers: string[] = [];
      let steer: Record<string, string> = {};

      beforeAll(async () => {
        const victim = await t.createStaff({ name: uniqueName('victim_name') });
        const deptName = uniqueName('Secret Dept');
        const dept = await createDepartment(deptName);
        const roleName = uniqueName('Secret Role');
        await createRole(roleName, [Permission.ParamRead]);
        const unitName = uniqueName('Secret Unit');
        await insertUnitRow(t.db, unitName);
        const typeName = uniqueName('Secret Type');
        await insertDeviceTypeRow(t.db, { name: typeName });
        const paramName = uniqueName('VaultKey');
        expectOk(await post(api.params.save, paramForm(paramName, { val: 'marker-s3cr3t-value' })));
        expectOk(
          await post(api.staff.updateStaffEx, {
            id: victim.id,
            name: victim.name,
            staffType: 1,
            deptId: dept,
            email: 'victim-marker@example.com',
          }),
        );
        markers.push(
          victim.name,
          victim.id,
          deptName,
          roleName,
          unitName,
          typeName,
          'marker-s3cr3t-value',
          'victim-marker@example.com',
        );
        steer = {
          name: paramName,
          clzName: 'vault',
          deptId: dept,
          staffId: victim.id,
          id: victim.id,
          subjectId: victim.id,
        };
      });

      /** The endpoint's sample request, its fields pointed at the other user and the system's data. */
      function steered(endpoint: Endpoint) {
        const point = (value: unknown) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k in steer ? steer[k] : v]))
            : value;
        return {
          query: point(sampleQuery(endpoint, { allProperties: true })) as Record<string, string>,
          body:
            endpoint.method === 'POST'
              ? (point(sampleBody(endpoint, { allProperties: true })) ?? {})
              : undefined,
        };
      }

      it('covers the endpoints open to every signed-in user', () => {
        expect(
          keyless
            .filter((e) => e.access === 'signedIn')
            .map((e) => e.path)
            .sort(),
        ).toEqual(
          [
            api.file.upload,
            api.home.getHomeOverview,
            api.params.getADCode,
            api.params.getByName,
            api.system.getFeatureFlags,
            api.params.getLngLat,
            api.params.getMap,
            api.params.getMarkerSearchDistance,
            api.params.getMobileAppRegist,
            api.params.getTaskNeedAudit,
            api.realtime.getBrokerLogin,
            api.auth.changePwd,
            api.auth.getUserInfo,
            api.auth.isFirstLogin,
            api.auth.logout,
            api.auth.queryMenuRight,
            api.auth.updateMyInfo,
          ].map((e) => e.path),
        );
      });

      it.each(keyless.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', async (_name, endpoint) => {
        // A session of its own: the endpoint may be the sign-out.
        const token = await tokenOf(await t.createStaff());
        const response = await injectEndpoint(t.app, endpoint, token, steered(endpoint));
        for (const marker of markers) expect(response.body, marker).not.toContain(marker);
      });
    });
  },
);
