import { api, type EndpointBody, Permission, ResultCode, translateValidation } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../src/modules/org/org.schema.ts';
import { fixedAuthorization, fixedAuthorizationDevice } from '../src/modules/tasks/tasks.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, fieldIssues, orgHelpers } from './support/org.ts';

type Form = EndpointBody<typeof api.fixedAuthorization.save>;

const DAY = 24 * 3_600_000;

/** Fixed authorisations (/task/fixed-authorize) through the API, on the real database. */
describe.each(databases)('fixed authorisations ($kind)', (kind) => {
  let t: TestApp;
  const now = Date.now();
  const { get, post, createDepartment, staffIn, tokenOf } = orgHelpers(() => t);
  let devices: string[] = [];

  beforeAll(async () => {
    t = await openTestApp(kind);
    const unitId = await insertUnitRow(t.db);
    const typeId = await insertDeviceTypeRow(t.db);
    devices = [
      await insertDeviceRow(t.db, { unitId, typeId, name: uniqueName('Gate A') }),
      await insertDeviceRow(t.db, { unitId, typeId, name: uniqueName('Gate B') }),
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  const iso = (ms: number) => new Date(ms).toISOString();
  const save = async (form: Form) => {
    const response = await post(api.fixedAuthorization.save, form);
    expectOk(response);
    return response.body.data.id;
  };
  const rowOf = async (id: string) => {
    const page = await get(api.fixedAuthorization.queryPage, { pageIndex: 1, pageSize: 100 });
    expectOk(page);
    return page.body.data.rows.find((r) => r.id === id);
  };

  it('gives devices to a staff member for a time range, listed with names and where it stands', async () => {
    const worker = await staffIn(null);
    const id = await save({
      objectType: 'staff',
      objectId: worker.id,
      startTime: iso(now - DAY),
      endTime: iso(now + DAY),
      deviceIds: [devices[1]!, devices[0]!],
    });
    const row = await rowOf(id);
    expect(row).toMatchObject({
      objectType: 'staff',
      objectId: worker.id,
      objectName: worker.name,
      forever: false,
      startTime: iso(now - DAY),
      endTime: iso(now + DAY),
      state: 'active',
      allDevice: false,
      createdByName: 'admin',
    });
    expect(row!.devices.map((d) => d.id).sort()).toEqual([...devices].sort());
  });

  it('gives all devices to a department forever, and tells upcoming and expired ones apart', async () => {
    const deptId = await createDepartment(uniqueName('Signals'));
    const forever = await save({
      objectType: 'department',
      objectId: deptId,
      forever: true,
      allDevice: true,
    });
    const upcoming = await save({
      objectType: 'department',
      objectId: deptId,
      startTime: iso(now + DAY),
      endTime: iso(now + 2 * DAY),
      allDevice: true,
    });
    const expired = await save({
      objectType: 'department',
      objectId: deptId,
      startTime: iso(now - 2 * DAY),
      endTime: iso(now),
      allDevice: true,
    });
    expect(await rowOf(forever)).toMatchObject({
      state: 'active',
      startTime: null,
      endTime: null,
      devices: [],
    });
    expect((await rowOf(upcoming))?.state).toBe('upcoming');
    expect((await rowOf(expired))?.state).toBe('expired');

    const search = async (query: Record<string, string>) => {
      const page = await get(api.fixedAuthorization.queryPage, { pageIndex: 1, pageSize: 100, ...query });
      expectOk(page);
      return page.body.data.rows.map((r) => r.id);
    };
    expect(await search({ state: 'upcoming' })).toContain(upcoming);
    expect(await search({ state: 'upcoming' })).not.toContain(forever);
    expect(await search({ state: 'expired' })).toEqual(expect.arrayContaining([expired]));
    expect(await search({ state: 'active', objectType: 'department' })).toContain(forever);
    expect(await search({ objectType: 'staff' })).not.toContain(forever);
    const name = (await rowOf(forever))!.objectName;
    expect(await search({ keyword: name.slice(2, 9) })).toEqual(
      expect.arrayContaining([forever, upcoming, expired]),
    );
    // All devices cover every device.
    expect(await search({ deviceId: devices[0]! })).toContain(forever);
  });

  it('refuses bad forms with translated field messages', async () => {
    const worker = await staffIn(null);
    expectInvalid(
      await post(api.fixedAuthorization.save, { objectType: 'staff', objectId: worker.id } as Form),
      ['startTime', 'deviceIds'],
    );
    const backwards = await post(
      api.fixedAuthorization.save,
      { objectType: 'staff', objectId: worker.id, startTime: iso(now), endTime: iso(now), allDevice: true },
      undefined,
      'en',
    );
    expectInvalid(backwards, ['endTime']);
    expect(fieldIssues(backwards)[0]?.message).toBe(translateValidation('v.endAfterStart', 'en'));
    const unknown = await post(
      api.fixedAuthorization.save,
      {
        objectType: 'department',
        objectId: 'no-such-dept',
        forever: true,
        deviceIds: [devices[0]!, 'no-such-device'],
      },
      undefined,
      'zh-CN',
    );
    expectInvalid(unknown, ['objectId', 'deviceIds.1']);
    expect(fieldIssues(unknown).map((i) => i.message)).toEqual([
      translateValidation('v.unknownObject', 'zh-CN'),
      translateValidation('v.unknownDevice', 'zh-CN'),
    ]);
  });

  it('replaces the devices on update, and deletes', async () => {
    const worker = await staffIn(null);
    const id = await save({
      objectType: 'staff',
      objectId: worker.id,
      forever: true,
      deviceIds: [devices[0]!],
    });
    expectOk(
      await post(api.fixedAuthorization.update, {
        id,
        objectType: 'staff',
        objectId: worker.id,
        startTime: iso(now),
        endTime: iso(now + DAY),
        deviceIds: [devices[1]!],
      }),
    );
    const row = await rowOf(id);
    expect(row).toMatchObject({ forever: false, startTime: iso(now), state: 'active' });
    expect(row!.devices.map((d) => d.id)).toEqual([devices[1]]);

    expectOk(
      await post(api.fixedAuthorization.update, {
        id,
        objectType: 'staff',
        objectId: worker.id,
        forever: true,
        allDevice: true,
      }),
    );
    expect(
      await t.db
        .select()
        .from(fixedAuthorizationDevice)
        .where(eq(fixedAuthorizationDevice.authorizationId, id)),
    ).toEqual([]);

    expectOk(await get(api.fixedAuthorization.del, { id }));
    expect(await rowOf(id)).toBeUndefined();
    expectCode(await get(api.fixedAuthorization.del, { id }), ResultCode.NotFound);
    expectCode(
      await post(api.fixedAuthorization.update, {
        id,
        objectType: 'staff',
        objectId: worker.id,
        forever: true,
        allDevice: true,
      }),
      ResultCode.NotFound,
    );
  });

  it('goes with the staff member it was given to', async () => {
    const worker = await staffIn(null);
    const id = await save({ objectType: 'staff', objectId: worker.id, forever: true, allDevice: true });
    await t.db.delete(staff).where(eq(staff.id, worker.id));
    expect(await t.db.select().from(fixedAuthorization).where(eq(fixedAuthorization.id, id))).toEqual([]);
  });

  it('is read with fixedAuthorization.read and changed only with the key of each action', async () => {
    const reader = await staffIn(null, [Permission.FixedAuthorizationRead]);
    const token = await tokenOf(reader);
    expectOk(await get(api.fixedAuthorization.queryPage, { pageIndex: 1, pageSize: 10 }, token));
    expectCode(
      await post(
        api.fixedAuthorization.save,
        { objectType: 'staff', objectId: reader.id, forever: true, allDevice: true },
        token,
      ),
      ResultCode.Forbidden,
    );
  });
});
