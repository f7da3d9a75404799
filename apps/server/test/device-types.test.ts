import { api, type DeviceTypeNode, devTypeOpKey, Permission, ResultCode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceType } from '../src/modules/devices/devices.schema.ts';
import { permissionGrant } from '../src/modules/org/org.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

function findNode(nodes: DeviceTypeNode[], id: string): DeviceTypeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

describe.each(databases)('device types ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, assignRoles, postRaw, createRole, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const typeForm = (name: string, parentId: string | null = null, extra: object = {}) => ({
    name,
    code: uniqueName('C'),
    parentId,
    category: 'IoT' as const,
    ...extra,
  });
  const createType = async (name: string, parentId: string | null = null, extra: object = {}) => {
    const response = await post(api.deviceType.save, typeForm(name, parentId, extra));
    expectOk(response);
    return response.body.data.id;
  };
  const tree = async (token?: string) => {
    const response = await get(api.deviceType.getTree, {}, token);
    expectOk(response);
    return response.body.data;
  };
  const nodeOf = async (id: string) => findNode(await tree(), id)!;

  it('come as main types with their sub types, ordered by sortIndex then name, with device counts', async () => {
    const main = await createType(uniqueName('Main'), null, {
      code: 'MAIN-X1',
      category: 'Elec',
      sortIndex: 4,
      desc: 'Electronic locks',
      reportInterval: 600,
      heartbeatInterval: 60,
    });
    const late = await createType('Bravo', main, { sortIndex: 10 });
    const alpha = await createType('Alpha', main, { sortIndex: 2 });
    const charlie = await createType('Charlie', main, { sortIndex: 2 });
    const first = await createType('Zulu', main);
    const unit = await insertUnitRow(t.db);
    await insertDeviceRow(t.db, { unitId: unit, typeId: alpha });
    await insertDeviceRow(t.db, { unitId: unit, typeId: alpha });

    const node = await nodeOf(main);
    expect(node).toMatchObject({
      code: 'MAIN-X1',
      parentId: null,
      category: 'Elec',
      sortIndex: 4,
      desc: 'Electronic locks',
      reportInterval: 600,
      heartbeatInterval: 60,
      deviceCount: 0,
    });
    expect(node.children.map((c) => c.id)).toEqual([first, alpha, charlie, late]);
    expect(node.children[1]).toMatchObject({ parentId: main, deviceCount: 2, children: [] });
    // A new type takes the default intervals.
    expect(node.children[0]).toMatchObject({ reportInterval: 3600, heartbeatInterval: 300, desc: null });
  });

  it('are read by the pages that show or choose them, and written only by holders of the keys', async () => {
    const token = await tokenOf(await t.createStaff({ permissions: [Permission.MonitorRead] }));
    await tree(token);
    expectCode(
      await get(api.deviceType.getTree, {}, await tokenOf(await t.createStaff())),
      ResultCode.Forbidden,
    );
    expectCode(await post(api.deviceType.save, typeForm(uniqueName('T')), token), ResultCode.Forbidden);
    const writer = await t.createStaff({ permissions: [Permission.DeviceTypeCreate] });
    expectOk(await post(api.deviceType.save, typeForm(uniqueName('T')), await tokenOf(writer)));
  });

  it('have two levels only (1122)', async () => {
    const main = await createType(uniqueName('Main'));
    const sub = await createType('Sub', main);
    const other = await createType(uniqueName('Other'));

    const third = await post(api.deviceType.save, typeForm('Third', sub), undefined, 'en');
    expectCode(third, ResultCode.DeviceTypeLevel);
    expect(third.body.message).toBe(
      'A sub type goes under a main type, and a main type with sub types cannot become a sub type',
    );
    expectCode(await post(api.deviceType.save, typeForm('Lost', 'no-such-type')), ResultCode.DeviceTypeLevel);

    const mainNode = await nodeOf(main);
    const moveMain = { id: main, ...typeForm(mainNode.name, other, { code: mainNode.code }) };
    expectCode(await post(api.deviceType.update, moveMain), ResultCode.DeviceTypeLevel);
    const otherNode = await nodeOf(other);
    const underItself = { id: other, ...typeForm(otherNode.name, other, { code: otherNode.code }) };
    expectCode(await post(api.deviceType.update, underItself), ResultCode.DeviceTypeLevel);

    // A main type without sub types may become one; a sub type may move to another main type or the top.
    expectOk(
      await post(api.deviceType.update, {
        id: other,
        ...typeForm(otherNode.name, main, { code: otherNode.code }),
      }),
    );
    const subNode = await nodeOf(sub);
    expectOk(
      await post(api.deviceType.update, { id: sub, ...typeForm(subNode.name, null, { code: subNode.code }) }),
    );
    expect((await nodeOf(main)).children.map((c) => c.id)).toEqual([other]);
    expect((await nodeOf(sub)).parentId).toBeNull();
  });

  it('keep codes unique ignoring case (1103) and names unique among siblings (1021)', async () => {
    const code = uniqueName('Code');
    const main = await createType(uniqueName('Main'), null, { code });
    const taken = await post(
      api.deviceType.save,
      typeForm(uniqueName('T'), null, { code: code.toUpperCase() }),
      undefined,
      'en',
    );
    expectCode(taken, ResultCode.CodeTaken);
    expect(taken.body.message).toBe(`"${code.toUpperCase()}" is already in use`);
    const own = await nodeOf(main);
    expectOk(
      await post(api.deviceType.update, {
        id: main,
        ...typeForm(own.name, null, { code: code.toLowerCase() }),
      }),
    );
    expect((await nodeOf(main)).code).toBe(code.toLowerCase());

    await createType('Reader', main);
    expectCode(await post(api.deviceType.save, typeForm('READER', main)), ResultCode.NameTaken);
    const other = await createType(uniqueName('Other'));
    const elsewhere = await createType('Reader', other);
    const moved = await nodeOf(elsewhere);
    expectCode(
      await post(api.deviceType.update, { id: elsewhere, ...typeForm('reader', main, { code: moved.code }) }),
      ResultCode.NameTaken,
    );
  });

  it('validate the form', async () => {
    expectInvalid(await postRaw(api.deviceType.save, { name: '', code: '', category: 'Nope' }), [
      'name',
      'code',
      'category',
    ]);
  });

  it('delete only without sub types (1120) and devices (1121)', async () => {
    const main = await createType(uniqueName('Main'));
    const sub = await createType('Sub', main);
    const refused = await t.call(api.deviceType.del, {
      query: { id: main },
      token: await admin(),
      lang: 'en',
    });
    expectCode(refused, ResultCode.DeviceTypeHasChildren);
    expect(refused.body.message).toBe('This device type has sub types and cannot be deleted');

    const device = await insertDeviceRow(t.db, { unitId: await insertUnitRow(t.db), typeId: sub });
    expectCode(await get(api.deviceType.del, { id: sub }), ResultCode.DeviceTypeInUse);
    expect(device).toBeTruthy();

    const free = await createType('Free', main);
    expectOk(await get(api.deviceType.del, { id: free }));
    expect(await t.db.select().from(deviceType).where(eq(deviceType.id, free))).toEqual([]);
  });

  it('answer 404 for an unknown type', async () => {
    expectCode(await get(api.deviceType.del, { id: 'no-such-type' }), ResultCode.NotFound);
    expectCode(
      await post(api.deviceType.update, { id: 'no-such-type', ...typeForm('X') }),
      ResultCode.NotFound,
    );
    expectCode(
      await post(api.deviceType.updateInterval, {
        id: 'no-such-type',
        reportInterval: 60,
        heartbeatInterval: 30,
      }),
      ResultCode.NotFound,
    );
  });

  describe('intervals', () => {
    it('are set alone, as positive whole seconds up to 30 days', async () => {
      const id = await createType(uniqueName('Main'), null, { desc: 'kept' });
      for (const bad of [0, -1, 1.5, 'abc', 2_592_001]) {
        const response = await post(
          api.deviceType.updateInterval,
          { id, reportInterval: bad, heartbeatInterval: bad },
          undefined,
          'en',
        );
        expectInvalid(response, ['reportInterval', 'heartbeatInterval']);
        expect(response.body.data).toContainEqual({
          path: 'reportInterval',
          message: 'Enter a whole number of seconds from 1 to 2592000',
        });
      }
      expectInvalid(await post(api.deviceType.save, typeForm(uniqueName('T'), null, { reportInterval: 0 })), [
        'reportInterval',
      ]);

      const before = await nodeOf(id);
      expectOk(
        await post(api.deviceType.updateInterval, { id, reportInterval: 1, heartbeatInterval: 2_592_000 }),
      );
      expect(await nodeOf(id)).toEqual({ ...before, reportInterval: 1, heartbeatInterval: 2_592_000 });
      expectOk(
        await post(api.deviceType.updateInterval, { id, reportInterval: '120', heartbeatInterval: '30' }),
      );
      expect(await nodeOf(id)).toMatchObject({ reportInterval: 120, heartbeatInterval: 30, desc: 'kept' });
    });

    it('need interval.update', async () => {
      const id = await createType(uniqueName('Main'));
      const body = { id, reportInterval: 60, heartbeatInterval: 30 };
      const reader = await t.createStaff({
        permissions: [Permission.IntervalRead, Permission.DeviceTypeUpdate],
      });
      expectCode(
        await post(api.deviceType.updateInterval, body, await tokenOf(reader)),
        ResultCode.Forbidden,
      );
      const writer = await t.createStaff({ permissions: [Permission.IntervalUpdate] });
      expectOk(await post(api.deviceType.updateInterval, body, await tokenOf(writer)));
    });
  });

  describe('DevTypeOp grants (spec §6)', () => {
    const grantsOf = async (roleId: string) =>
      (await get(api.permission.getGrants, { subjectType: 'Role', subjectId: roleId })).body.data.keys;

    it('are accepted for an existing type and held like any key', async () => {
      const typeId = await createType(uniqueName('Main'));
      const roleId = await createRole(uniqueName('operator'));
      const keys = [Permission.DeviceRead, devTypeOpKey(typeId)];
      expectOk(await post(api.permission.saveGrants, { subjectType: 'Role', subjectId: roleId, keys }));
      expect(await grantsOf(roleId)).toEqual([...keys].sort());

      const member = await t.createStaff();
      expectOk(await assignRoles(member.id, [roleId]));
      const token = await tokenOf(member);
      const right = await get(api.auth.queryMenuRight, {}, token);
      expectOk(right);
      expect(right.body.data.permissions).toContain(devTypeOpKey(typeId));
      const effective = await get(api.staff.queryStaffResTree, { staffId: member.id });
      expect(effective.body.data.keys).toContain(devTypeOpKey(typeId));
    });

    it('are refused for a missing type, with a field error, and change nothing', async () => {
      const roleId = await createRole(uniqueName('operator'), [Permission.DeviceRead]);
      const response = await post(
        api.permission.saveGrants,
        {
          subjectType: 'Role',
          subjectId: roleId,
          keys: [Permission.KeyRead, devTypeOpKey('no-such-type'), 'devTypeOp:'],
        },
        undefined,
        'en',
      );
      expectCode(response, ResultCode.InvalidInput);
      expect(response.body.data).toEqual([
        { path: 'keys.1', message: 'Invalid format', value: devTypeOpKey('no-such-type') },
        { path: 'keys.2', message: 'Invalid format', value: 'devTypeOp:' },
      ]);
      expect(await grantsOf(roleId)).toEqual([Permission.DeviceRead]);
    });

    it('go when the type is deleted', async () => {
      const typeId = await createType(uniqueName('Main'));
      const keep = await createType(uniqueName('Kept'));
      const roleId = await createRole(uniqueName('operator'));
      const dept = await orgHelpers(() => t).createDepartment(uniqueName('Dept'));
      for (const [subjectType, subjectId] of [
        ['Role', roleId],
        ['Department', dept],
      ] as const) {
        expectOk(
          await post(api.permission.saveGrants, {
            subjectType,
            subjectId,
            keys: [Permission.DeviceRead, devTypeOpKey(typeId), devTypeOpKey(keep)],
          }),
        );
      }
      expectOk(await get(api.deviceType.del, { id: typeId }));
      expect(
        await t.db
          .select()
          .from(permissionGrant)
          .where(eq(permissionGrant.permission, devTypeOpKey(typeId))),
      ).toEqual([]);
      expect(await grantsOf(roleId)).toEqual([Permission.DeviceRead, devTypeOpKey(keep)].sort());
    });
  });
});
