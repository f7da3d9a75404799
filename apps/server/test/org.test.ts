import {
  ADMIN_ROLE_ID,
  ALL_PERMISSIONS,
  api,
  type DepartmentNode,
  type GrantSubject,
  Permission,
  ResultCode,
  type RoleAction,
  type RoleListRow,
} from '@uiot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionGrant, role, staffRole } from '../src/modules/org/org.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

function findNode(nodes: DepartmentNode[], id: string): DepartmentNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

describe.each(databases)('departments, roles and grants ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, assignRoles, createDepartment, createRole, staffIn, tokenOf } = orgHelpers(
    () => t,
  );

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const tree = async () => {
    const response = await get(api.department.getTree);
    expectOk(response);
    return response.body.data;
  };
  const departmentForm = (name: string, parentId: string | null, extra: object = {}) => ({
    name,
    deptType: 'Electric' as const,
    parentId,
    ...extra,
  });

  describe('departments', () => {
    it('come as a tree ordered by idxNo then name, with the staff count of each node', async () => {
      const top = await createDepartment(uniqueName('Top'));
      const late = await createDepartment('Bravo', top, 2);
      const alpha = await createDepartment('Alpha', top, 1);
      const charlie = await createDepartment('Charlie', top, 1);
      const leaf = await createDepartment('Leaf', alpha);
      await staffIn(alpha);
      await staffIn(alpha);
      await staffIn(leaf);

      const node = findNode(await tree(), top)!;
      expect(node.parentId).toBeNull();
      expect(node.children.map((c) => c.id)).toEqual([alpha, charlie, late]);
      const alphaNode = node.children[0]!;
      expect(alphaNode).toMatchObject({ name: 'Alpha', idxNo: 1, parentId: top, staffCount: 2 });
      expect(alphaNode.children.map((c) => [c.id, c.staffCount])).toEqual([[leaf, 1]]);
      expect(node.staffCount).toBe(0);
    });

    it('is read by the pages that show or choose a department, not by every signed-in user', async () => {
      const clerk = await t.createStaff({ permissions: [Permission.KeyRead] });
      expectOk(await get(api.department.getTree, {}, await tokenOf(clerk)));
      const user = await t.createStaff();
      expectCode(await get(api.department.getTree, {}, await tokenOf(user)), ResultCode.Forbidden);
    });

    it('refuses an unknown parent with a field error', async () => {
      expectInvalid(await post(api.department.save, departmentForm(uniqueName('D'), 'no-such-dept')), [
        'parentId',
      ]);
      const id = await createDepartment(uniqueName('D'));
      expectInvalid(await post(api.department.update, { id, ...departmentForm('Moved', 'no-such-dept') }), [
        'parentId',
      ]);
    });

    it('keeps names unique among siblings only, ignoring case', async () => {
      const parent = await createDepartment(uniqueName('Parent'));
      const other = await createDepartment(uniqueName('Other'));
      await createDepartment('Signals', parent);
      const taken = await post(api.department.save, departmentForm('SIGNALS', parent), undefined, 'en');
      expectCode(taken, ResultCode.NameTaken);
      expect(taken.body.message).toBe('The name "SIGNALS" is already in use');
      const elsewhere = await createDepartment('Signals', other);

      // Moving the second one under the first parent would make two siblings of that name.
      expectCode(
        await post(api.department.update, { id: elsewhere, ...departmentForm('Signals', parent) }),
        ResultCode.NameTaken,
      );
      // Keeping its own name is no conflict.
      expectOk(
        await post(api.department.update, {
          id: elsewhere,
          ...departmentForm('Signals', other, { code: 'S1' }),
        }),
      );
      const topName = uniqueName('TopLevel');
      await createDepartment(topName);
      expectCode(await post(api.department.save, departmentForm(topName, null)), ResultCode.NameTaken);
    });

    it('refuses to make a department its own parent or the child of one below it (1032)', async () => {
      const a = await createDepartment(uniqueName('A'));
      const child = await createDepartment('Child', a);
      const grandchild = await createDepartment('Grandchild', child);
      const aName = findNode(await tree(), a)!.name;

      for (const parentId of [a, child, grandchild]) {
        const response = await post(
          api.department.update,
          { id: a, ...departmentForm(aName, parentId) },
          undefined,
          'en',
        );
        expectCode(response, ResultCode.DepartmentCycle);
        expect(response.body.message).toBe('The parent cannot be the department itself or one below it');
      }
      expect(findNode(await tree(), a)!.parentId).toBeNull();

      // Moving down the other way is fine: the grandchild becomes a top-level department, then a's parent.
      expectOk(await post(api.department.update, { id: grandchild, ...departmentForm('Grandchild', null) }));
      expectOk(await post(api.department.update, { id: a, ...departmentForm(aName, grandchild) }));
      expect(findNode(await tree(), grandchild)!.children.map((c) => c.id)).toEqual([a]);
    });

    it('lets only one of two concurrent moves that would close a loop through', async () => {
      const a = await createDepartment(uniqueName('A'));
      const b = await createDepartment(uniqueName('B'));
      const nameOf = async (id: string) => findNode(await tree(), id)!.name;
      const [aName, bName] = [await nameOf(a), await nameOf(b)];
      const answers = await Promise.all([
        post(api.department.update, { id: a, ...departmentForm(aName, b) }),
        post(api.department.update, { id: b, ...departmentForm(bName, a) }),
      ]);
      expect(answers.map((r) => r.body.code).sort((x, y) => x - y)).toEqual([
        ResultCode.Ok,
        ResultCode.DepartmentCycle,
      ]);
      const roots = (await tree()).map((n) => n.id);
      expect(roots.includes(a) !== roots.includes(b)).toBe(true);
    });

    it('deletes only a department without sub-departments (1030) and without staff (1031)', async () => {
      const parent = await createDepartment(uniqueName('P'));
      const child = await createDepartment('Child', parent);
      await staffIn(child);
      await staffIn(child);

      expectCode(await get(api.department.del, { id: parent }), ResultCode.DepartmentHasChildren);
      const withStaff = await t.call(api.department.del, {
        query: { id: child },
        token: await admin(),
        lang: 'en',
      });
      expectCode(withStaff, ResultCode.DepartmentHasStaff);
      expect(withStaff.body.message).toBe('This department still has 2 staff members and cannot be deleted');

      const empty = await createDepartment('Empty', parent);
      await post(api.permission.saveGrants, {
        subjectType: 'Department',
        subjectId: empty,
        keys: [Permission.ParamRead],
      });
      expectOk(await get(api.department.del, { id: empty }));
      expect(findNode(await tree(), empty)).toBeUndefined();
      const grants = await t.db
        .select()
        .from(permissionGrant)
        .where(and(eq(permissionGrant.subjectType, 'Department'), eq(permissionGrant.subjectId, empty)));
      expect(grants).toEqual([]);
    });

    it('answers 404 for an unknown department', async () => {
      expectCode(await get(api.department.del, { id: 'no-such-dept' }), ResultCode.NotFound);
      expectCode(
        await post(api.department.update, { id: 'no-such-dept', ...departmentForm('X', null) }),
        ResultCode.NotFound,
      );
    });
  });

  describe('roles', () => {
    const page = (query: Record<string, string>) => get(api.role.queryPage, query);

    it('are paged, searched by name and type, sorted by name or creation', async () => {
      const tag = uniqueName('rq');
      const ids: string[] = [];
      for (const [name, roleType] of [
        [`${tag}-charlie`, 'JobApprover'],
        [`${tag}-alpha`, 'JobLeader'],
        [`${tag}-bravo`, 'JobLeader'],
      ] as const) {
        const response = await post(api.role.save, { name, roleType, description: 'd' });
        expectOk(response);
        ids.push(response.body.data.id);
      }
      const byName = await page({ name: tag.toUpperCase(), sort: 'name', ascending: 'true' });
      expect(byName.body.data.total).toBe(3);
      expect(byName.body.data.rows.map((r) => r.name)).toEqual([
        `${tag}-alpha`,
        `${tag}-bravo`,
        `${tag}-charlie`,
      ]);
      const descending = await page({ name: tag, sort: 'name', ascending: 'false' });
      expect(descending.body.data.rows.map((r) => r.name)).toEqual([
        `${tag}-charlie`,
        `${tag}-bravo`,
        `${tag}-alpha`,
      ]);
      const byCreation = await page({ name: tag, sort: 'createdAt', ascending: 'true' });
      expect(byCreation.body.data.rows.map((r) => r.id)).toEqual(ids);

      const leaders = await page({ name: tag, roleType: 'JobLeader' });
      expect(leaders.body.data.rows.map((r) => r.name).sort()).toEqual([`${tag}-alpha`, `${tag}-bravo`]);

      const second = await page({ name: tag, sort: 'name', pageIndex: '2', pageSize: '2' });
      expect(second.body.data).toMatchObject({ total: 3 });
      expect(second.body.data.rows.map((r) => r.name)).toEqual([`${tag}-charlie`]);

      expectInvalid(await page({ sort: 'description' }), ['sort']);
      // A '%' in the search text is a character, not a wildcard.
      expect((await page({ name: `${tag}%` })).body.data.total).toBe(0);
    });

    it('tell the built-in admin role, their department and how many staff hold them', async () => {
      const dept = await createDepartment(uniqueName('RoleDept'));
      const name = uniqueName('counted');
      const response = await post(api.role.save, { name, deptId: dept });
      const id = response.body.data.id;
      const member = await t.createStaff();
      expectOk(await assignRoles(member.id, [id]));

      const [row] = (await page({ name })).body.data.rows;
      expect(row).toMatchObject({ id, name, deptId: dept, staffCount: 1, builtIn: false, roleType: null });
      expect(Number.isNaN(Date.parse(row!.createdAt))).toBe(false);
      const [adminRow] = (await page({ name: 'admin', sort: 'name' })).body.data.rows.filter(
        (r) => r.id === ADMIN_ROLE_ID,
      );
      expect(adminRow).toMatchObject({ builtIn: true });

      expectInvalid(await post(api.role.save, { name: uniqueName('r'), deptId: 'no-such-dept' }), ['deptId']);
    });

    it('are all listed for the role selector of staff, by name, with whether the caller may assign each', async () => {
      const name = uniqueName('listed');
      const id = await createRole(name);
      const keyed = await createRole(uniqueName('keyed'), [Permission.DeviceRead]);
      const user = await t.createStaff({ permissions: [Permission.StaffAssignRole] });
      const all = await get(api.role.getAll, {}, await tokenOf(user));
      expectOk(all);
      expect(all.body.data).toContainEqual({ id, name, roleType: 'JobLeader', assignable: true });
      expect(all.body.data.find((r) => r.id === keyed)?.assignable).toBe(false);
      expect(all.body.data.find((r) => r.id === ADMIN_ROLE_ID)?.assignable).toBe(false);
      expect((await get(api.role.getAll)).body.data.every((r) => r.assignable)).toBe(true);
      expectCode(await get(api.role.getAll, {}, await tokenOf(await t.createStaff())), ResultCode.Forbidden);
      const ids = all.body.data.map((r) => r.id);
      const first = await createRole(`aa-${name}`);
      const last = await createRole(`zz-${name}`);
      const ordered = (await get(api.role.getAll)).body.data.map((r) => r.id);
      expect(ordered.indexOf(first)).toBeLessThan(ordered.indexOf(last));
      expect(ids).toContain(ADMIN_ROLE_ID);
    });

    it('have unique names, ignoring case', async () => {
      const name = uniqueName('Unique');
      const id = await createRole(name);
      expectCode(await post(api.role.save, { name: name.toUpperCase() }), ResultCode.NameTaken);
      const other = await createRole(uniqueName('other'));
      expectCode(await post(api.role.update, { id: other, name }), ResultCode.NameTaken);
      expectOk(await post(api.role.update, { id, name, description: 'renamed nothing' }));
      expectCode(
        await post(api.role.update, { id: 'no-such-role', name: uniqueName('r') }),
        ResultCode.NotFound,
      );
      expectCode(await get(api.role.del, { id: 'no-such-role' }), ResultCode.NotFound);
    });

    it('never change the built-in admin role (1024), which holds every key', async () => {
      expectCode(await post(api.role.update, { id: ADMIN_ROLE_ID, name: 'admin' }), ResultCode.BuiltInRole);
      expectCode(await get(api.role.del, { id: ADMIN_ROLE_ID }), ResultCode.BuiltInRole);
      expectCode(
        await post(api.permission.saveGrants, { subjectType: 'Role', subjectId: ADMIN_ROLE_ID, keys: [] }),
        ResultCode.BuiltInRole,
      );
      const grants = await get(api.permission.getGrants, {
        subjectType: 'Role',
        subjectId: ADMIN_ROLE_ID,
      });
      expect(grants.body.data).toMatchObject({ keys: [...ALL_PERMISSIONS].sort(), all: true });
      expect(await t.db.select().from(role).where(eq(role.id, ADMIN_ROLE_ID))).toHaveLength(1);
    });

    it('offer on each row of the list exactly what the server then does (abilities)', async () => {
      const names = (await get(api.role.getAll)).body.data;
      const adminName = names.find((r) => r.id === ADMIN_ROLE_ID)!.name;
      const own = uniqueName('able');
      await createRole(own, [Permission.ParamRead]);
      const calls: Record<RoleAction, (r: RoleListRow) => Promise<{ body: { success: boolean } }>> = {
        update: (r) => post(api.role.update, { id: r.id, name: r.name }),
        grant: (r) => post(api.permission.saveGrants, { subjectType: 'Role', subjectId: r.id, keys: [] }),
        delete: (r) => get(api.role.del, { id: r.id }),
      };
      for (const name of [adminName, own]) {
        const listed = (await page({ name })).body.data.rows.find((r) => r.name === name)!;
        expect(listed.abilities.update, name).toBe(name === own);
        for (const action of Object.keys(calls) as RoleAction[]) {
          expect((await calls[action](listed)).body.success, `${action} of ${name}`).toBe(
            listed.abilities[action],
          );
        }
      }
    });

    it('take their grants and staff assignments with them when deleted', async () => {
      const id = await createRole(uniqueName('doomed'), [Permission.ParamRead]);
      const member = await t.createStaff();
      expectOk(await assignRoles(member.id, [id]));
      const token = await tokenOf(member);
      expectOk(await get(api.params.getAll, {}, token));

      expectOk(await get(api.role.del, { id }));
      expectCode(await get(api.params.getAll, {}, token), ResultCode.Forbidden);
      expect(await t.db.select().from(staffRole).where(eq(staffRole.roleId, id))).toEqual([]);
      expect(await t.db.select().from(permissionGrant).where(eq(permissionGrant.subjectId, id))).toEqual([]);
      expect(await t.db.select().from(role).where(eq(role.id, id))).toEqual([]);
    });
  });

  describe('grants', () => {
    /** A subject's keys (without what the caller may grant: the admin's every key here). */
    const grantsOf = async (subjectType: GrantSubject, subjectId: string) => {
      const { keys, all } = (await get(api.permission.getGrants, { subjectType, subjectId })).body.data;
      return { keys, all };
    };

    it('are replaced as a whole for a role, a staff member or a department', async () => {
      const roleId = await createRole(uniqueName('granted'));
      const member = await t.createStaff();
      const dept = await createDepartment(uniqueName('GrantDept'));
      for (const [subjectType, subjectId] of [
        ['Role', roleId],
        ['Staff', member.id],
        ['Department', dept],
      ] as const) {
        expect(await grantsOf(subjectType, subjectId)).toEqual({ keys: [], all: false });
        expectOk(
          await post(api.permission.saveGrants, {
            subjectType,
            subjectId,
            keys: [Permission.StaffRead, Permission.ParamRead, Permission.StaffRead],
          }),
        );
        expect(await grantsOf(subjectType, subjectId)).toEqual({
          keys: [Permission.ParamRead, Permission.StaffRead],
          all: false,
        });
        expectOk(
          await post(api.permission.saveGrants, { subjectType, subjectId, keys: [Permission.RoleRead] }),
        );
        expect(await grantsOf(subjectType, subjectId)).toEqual({ keys: [Permission.RoleRead], all: false });
      }
    });

    it('refuse keys that are not permission keys (400 naming them) and change nothing', async () => {
      const roleId = await createRole(uniqueName('strict'), [Permission.StaffRead]);
      const response = await post(
        api.permission.saveGrants,
        { subjectType: 'Role', subjectId: roleId, keys: [Permission.ParamRead, 'no.such', 'admin'] },
        undefined,
        'en',
      );
      expectCode(response, ResultCode.InvalidInput);
      expect(response.body.data).toEqual([
        { path: 'keys.1', message: 'Invalid format', value: 'no.such' },
        { path: 'keys.2', message: 'Invalid format', value: 'admin' },
      ]);
      expect(await grantsOf('Role', roleId)).toEqual({ keys: [Permission.StaffRead], all: false });
    });

    it('need an existing subject', async () => {
      for (const [subjectType, code] of [
        ['Role', ResultCode.NotFound],
        ['Department', ResultCode.NotFound],
        ['Staff', ResultCode.UserNotFound],
      ] as const) {
        const body = { subjectType, subjectId: 'nobody', keys: [Permission.StaffRead] };
        expectCode(await post(api.permission.saveGrants, body), code);
        expectCode(await get(api.permission.getGrants, { subjectType, subjectId: 'nobody' }), code);
      }
      expect(
        await t.db.select().from(permissionGrant).where(eq(permissionGrant.subjectId, 'nobody')),
      ).toEqual([]);
    });

    it("make up a staff member's effective keys: roles, own grants and every department above", async () => {
      const parent = await createDepartment(uniqueName('Region'));
      const child = await createDepartment('Depot', parent);
      const member = await staffIn(child);
      const token = await tokenOf(member);
      expectCode(await get(api.params.getAll, {}, token), ResultCode.Forbidden);

      expectOk(
        await post(api.permission.saveGrants, {
          subjectType: 'Department',
          subjectId: parent,
          keys: [Permission.ParamRead],
        }),
      );
      expectOk(
        await post(api.permission.saveGrants, {
          subjectType: 'Department',
          subjectId: child,
          keys: [Permission.RoleRead],
        }),
      );
      expectOk(
        await post(api.permission.saveGrants, {
          subjectType: 'Staff',
          subjectId: member.id,
          keys: [Permission.DepartmentRead],
        }),
      );
      const roleId = await createRole(uniqueName('viewer'), [Permission.StaffRead]);
      expectOk(await assignRoles(member.id, [roleId]));

      const effective = await get(api.staff.queryStaffResTree, { staffId: member.id });
      expect(effective.body.data).toEqual({
        keys: [
          Permission.DepartmentRead,
          Permission.ParamRead,
          Permission.RoleRead,
          Permission.StaffRead,
        ].sort(),
        all: false,
      });
      // The parent department's grant opens its endpoint to the member, on the session already open.
      expectOk(await get(api.params.getAll, {}, token));

      const ofAdmin = await get(api.staff.queryStaffResTree, { staffId: 'admin' });
      expect(ofAdmin.body.data).toEqual({ keys: [...ALL_PERMISSIONS].sort(), all: true });
      expectCode(await get(api.staff.queryStaffResTree, { staffId: 'nobody' }), ResultCode.UserNotFound);
    });
  });
});
