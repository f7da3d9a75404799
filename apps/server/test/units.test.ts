import { api, Permission, ResultCode, type UnitNode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { operationUnit } from '../src/modules/devices/devices.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

function findNode(nodes: UnitNode[], id: string): UnitNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

describe.each(databases)('operation units ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const unitForm = (name: string, parentId: string | null = null, extra: object = {}) => ({
    name,
    parentId,
    ...extra,
  });
  const createUnit = async (name: string, parentId: string | null = null, extra: object = {}) => {
    const response = await post(api.unit.save, unitForm(name, parentId, extra));
    expectOk(response);
    return response.body.data.id;
  };
  const tree = async () => {
    const response = await get(api.unit.getTree);
    expectOk(response);
    return response.body.data;
  };
  const nameOf = async (id: string) => findNode(await tree(), id)!.name;

  it('come as a tree ordered by sortIndex then name, with every field', async () => {
    const top = await createUnit(uniqueName('Line'), null, {
      menuName: 'Tsuen Wan',
      typeId: 'line',
      desc: 'Main line',
      sortIndex: 3,
    });
    const late = await createUnit('Bravo', top, { sortIndex: 10 });
    const alpha = await createUnit('Alpha', top, { sortIndex: 2 });
    const charlie = await createUnit('Charlie', top, { sortIndex: 2 });
    const first = await createUnit('Zulu', top, { sortIndex: 0 });
    const leaf = await createUnit('Leaf', alpha);

    const node = findNode(await tree(), top)!;
    expect(node).toMatchObject({
      parentId: null,
      menuName: 'Tsuen Wan',
      typeId: 'line',
      desc: 'Main line',
      sortIndex: 3,
      stationId: DEFAULT_STATION.id,
    });
    // Numeric order: 10 comes after 2, not before it.
    expect(node.children.map((c) => c.id)).toEqual([first, alpha, charlie, late]);
    expect(node.children[1]!.children.map((c) => c.id)).toEqual([leaf]);
    expect(node.children[0]).toMatchObject({ menuName: null, typeId: null, desc: null });
  });

  it('is read by the pages that show or choose a unit, and written only by holders of the keys', async () => {
    const user = await t.createStaff({ permissions: [Permission.DevicePasswordRead] });
    const token = await tokenOf(user);
    expectOk(await get(api.unit.getTree, {}, token));
    expectCode(await get(api.unit.getTree, {}, await tokenOf(await t.createStaff())), ResultCode.Forbidden);
    expectCode(await post(api.unit.save, unitForm(uniqueName('U')), token), ResultCode.Forbidden);

    const writer = await t.createStaff({ permissions: [Permission.UnitCreate] });
    expectOk(await post(api.unit.save, unitForm(uniqueName('U')), await tokenOf(writer)));
  });

  it('takes a whole sort index of 0 or more only, with a translated message', async () => {
    for (const sortIndex of [-1, 1.5, 'abc']) {
      for (const [lang, message] of [
        ['en', 'Enter a whole number (0 or more)'],
        ['zh-CN', '请输入非负整数'],
        ['zh-TW', '請輸入非負整數'],
      ] as const) {
        const response = await post(
          api.unit.save,
          unitForm(uniqueName('S'), null, { sortIndex }),
          undefined,
          lang,
        );
        expectInvalid(response, ['sortIndex']);
        expect(response.body.data).toEqual([{ path: 'sortIndex', message }]);
      }
    }
    const id = await createUnit(uniqueName('S'), null, { sortIndex: '7' });
    expect(findNode(await tree(), id)!.sortIndex).toBe(7);
    expectInvalid(await post(api.unit.save, unitForm('')), ['name']);
    expectInvalid(await post(api.unit.save, unitForm('x'.repeat(65), null, { desc: 'd'.repeat(256) })), [
      'name',
      'desc',
    ]);
  });

  it('refuses an unknown parent with a field error, like departments', async () => {
    expectInvalid(await post(api.unit.save, unitForm(uniqueName('U'), 'no-such-unit')), ['parentId']);
    const id = await createUnit(uniqueName('U'));
    expectInvalid(await post(api.unit.update, { id, ...unitForm('Moved', 'no-such-unit') }), ['parentId']);
  });

  it('keeps names unique among siblings only, ignoring case (1021)', async () => {
    const parent = await createUnit(uniqueName('Parent'));
    const other = await createUnit(uniqueName('Other'));
    await createUnit('Depot', parent);
    const taken = await post(api.unit.save, unitForm('DEPOT', parent), undefined, 'en');
    expectCode(taken, ResultCode.NameTaken);
    expect(taken.body.message).toBe('The name "DEPOT" is already in use');
    const elsewhere = await createUnit('Depot', other);

    expectCode(
      await post(api.unit.update, { id: elsewhere, ...unitForm('Depot', parent) }),
      ResultCode.NameTaken,
    );
    expectOk(await post(api.unit.update, { id: elsewhere, ...unitForm('Depot', other, { menuName: 'D' }) }));
    const topName = uniqueName('TopLevel');
    await createUnit(topName);
    expectCode(await post(api.unit.save, unitForm(topName.toLowerCase())), ResultCode.NameTaken);
  });

  it('refuses to make a unit its own parent or the child of one below it (1101)', async () => {
    const a = await createUnit(uniqueName('A'));
    const child = await createUnit('Child', a);
    const grandchild = await createUnit('Grandchild', child);
    const aName = await nameOf(a);

    for (const parentId of [a, child, grandchild]) {
      for (const [lang, message] of [
        ['en', 'The parent cannot be the operation unit itself or one below it'],
        ['zh-CN', '上级单元不能是自身或其下级'],
        ['zh-TW', '上級單元不能是自身或其下級'],
      ] as const) {
        const response = await post(
          api.unit.update,
          { id: a, ...unitForm(aName, parentId) },
          undefined,
          lang,
        );
        expectCode(response, ResultCode.UnitCycle);
        expect(response.body.message).toBe(message);
      }
    }
    expect(findNode(await tree(), a)!.parentId).toBeNull();

    expectOk(await post(api.unit.update, { id: grandchild, ...unitForm('Grandchild', null) }));
    expectOk(await post(api.unit.update, { id: a, ...unitForm(aName, grandchild) }));
    expect(findNode(await tree(), grandchild)!.children.map((c) => c.id)).toEqual([a]);
  });

  it('lets only one of two concurrent moves that would close a loop through', async () => {
    const a = await createUnit(uniqueName('A'));
    const b = await createUnit(uniqueName('B'));
    const [aName, bName] = [await nameOf(a), await nameOf(b)];
    const answers = await Promise.all([
      post(api.unit.update, { id: a, ...unitForm(aName, b) }),
      post(api.unit.update, { id: b, ...unitForm(bName, a) }),
    ]);
    expect(answers.map((r) => r.body.code).sort((x, y) => x - y)).toEqual([
      ResultCode.Ok,
      ResultCode.UnitCycle,
    ]);
  });

  it('deletes only a unit without sub-units (1100)', async () => {
    const parent = await createUnit(uniqueName('P'));
    const child = await createUnit('Child', parent);

    const refused = await t.call(api.unit.del, {
      query: { id: parent },
      token: await admin(),
      lang: 'en',
    });
    expectCode(refused, ResultCode.UnitHasChildren);
    expect(refused.body.message).toBe('This operation unit has sub-units and cannot be deleted');

    expectOk(await get(api.unit.del, { id: child }));
    expect(await t.db.select().from(operationUnit).where(eq(operationUnit.id, child))).toEqual([]);
    expectOk(await get(api.unit.del, { id: parent }));
    expect(findNode(await tree(), parent)).toBeUndefined();
  });

  it('answers 404 for an unknown unit', async () => {
    expectCode(await get(api.unit.del, { id: 'no-such-unit' }), ResultCode.NotFound);
    expectCode(await post(api.unit.update, { id: 'no-such-unit', ...unitForm('X') }), ResultCode.NotFound);
  });
});
