import {
  ADMIN_ROLE_ID,
  ALL_ENDPOINTS,
  ALL_PERMISSIONS,
  api,
  devTypeOpKey,
  type Endpoint,
  type GrantSubject,
  isMutating,
  Permission,
  type PermissionKey,
  ResultCode,
} from '@uiot/contracts';
import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/password-hash.ts';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { EVERY_KEY, holdsKey } from '../src/modules/org/grant-rule.ts';
import { permissionGrant, role, staff, staffRole } from '../src/modules/org/org.schema.ts';
import {
  effectivePermissionsSql,
  isAdminSql,
  loadStaffAccess,
} from '../src/modules/org/staff-access.repository.ts';
import { sysMessage } from '../src/modules/registration/registration.schema.ts';
import { completedOpLogs, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceTypeRow } from './support/devices.ts';
import { expectGrantRefused, expectOk, orgHelpers } from './support/org.ts';
import { injectEndpoint, sampleBody, sampleQuery } from './support/sample-input.ts';

/** A password the strong policy (StrongPassword, on by default) accepts. */
const STRONG_PASSWORD = 'Mv8#qLx2Tz';

interface Access {
  isAdmin: boolean;
  permissions: Set<string>;
}

// Finding 8 of the security review: a user holding only role.grant granted itself every key through
// permission/saveGrants. Whatever way keys change hands, a user gives or takes only keys the user holds.
describe.each(databases)('finding 8: no way to hand out keys one does not hold ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, assignRoles, createDepartment, createRole, tokenOf } = orgHelpers(() => t);
  let deviceType: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    deviceType = await insertDeviceTypeRow(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const keysOf = async (staffId: string) => {
    const access = await loadStaffAccess(t.db, staffId);
    return access.isAdmin ? [EVERY_KEY] : [...access.permissions].sort();
  };
  const grantsOf = async (subjectType: GrantSubject, subjectId: string) =>
    (await get(api.permission.getGrants, { subjectType, subjectId })).body.data.keys;
  const saveGrants = (subjectType: GrantSubject, subjectId: string, keys: string[], token?: string) =>
    post(api.permission.saveGrants, { subjectType, subjectId, keys }, token);
  /** A signed-in user holding exactly these keys (through one role of its own). */
  const userWith = async (keys: readonly PermissionKey[]) => {
    const user = await t.createStaff({ permissions: keys });
    return { user, token: await tokenOf(user) };
  };

  describe('grants', () => {
    it('role.grant alone does not make its holder an administrator; the refusal is logged', async () => {
      const { user, token } = await userWith([Permission.RoleGrant]);
      const [ownRole] = await t.db.select().from(staffRole).where(eq(staffRole.staffId, user.id));
      for (const [subjectType, subjectId] of [
        ['Staff', user.id],
        ['Role', ownRole!.roleId],
      ] as const) {
        const refused = await saveGrants(subjectType, subjectId, [...ALL_PERMISSIONS], token);
        expectGrantRefused(
          refused,
          ALL_PERMISSIONS.filter((k) => k !== Permission.RoleGrant),
        );
      }
      expect(await keysOf(user.id)).toEqual([Permission.RoleGrant]);
      const logged = await completedOpLogs(
        t.db,
        and(eq(opLog.userId, user.id), eq(opLog.url, urlOf(api.permission.saveGrants))),
        2,
      );
      expect(logged.map((r) => r.resultCode)).toEqual([ResultCode.GrantBeyondOwn, ResultCode.GrantBeyondOwn]);
    });

    it('changes only the keys the editor holds; the others stay as they were, neither removed nor added', async () => {
      const target = await createRole(uniqueName('target'), [Permission.ParamRead, Permission.StaffRead]);
      const { token } = await userWith([Permission.RoleGrant, Permission.StaffRead, Permission.DeviceRead]);
      const shown = (await get(api.permission.getGrants, { subjectType: 'Role', subjectId: target }, token))
        .body.data.grantable;
      expect(shown).toEqual({
        keys: [Permission.DeviceRead, Permission.RoleGrant, Permission.StaffRead].sort(),
        all: false,
      });

      // The editor's console shows its own keys only: param.read is not sent, and stays.
      expectOk(await saveGrants('Role', target, [Permission.DeviceRead], token));
      expect(await grantsOf('Role', target)).toEqual([Permission.DeviceRead, Permission.ParamRead]);
      // Sent back as it is, it is no addition.
      expectOk(await saveGrants('Role', target, [Permission.ParamRead], token));
      expect(await grantsOf('Role', target)).toEqual([Permission.ParamRead]);
      // Adding one the editor does not hold refuses the whole save.
      expectGrantRefused(
        await saveGrants('Role', target, [Permission.StaffRead, Permission.OpLogRead], token),
        [Permission.OpLogRead],
      );
      expect(await grantsOf('Role', target)).toEqual([Permission.ParamRead]);
    });

    it('gives a dynamic key (devTypeOp) only to a holder of it, and to departments alike', async () => {
      const other = await insertDeviceTypeRow(t.db);
      const { token } = await userWith([Permission.RoleGrant]);
      const holder = await userWith([Permission.RoleGrant]);
      await t.db
        .insert(permissionGrant)
        .values({ subjectType: 'Staff', subjectId: holder.user.id, permission: devTypeOpKey(deviceType) });
      const dept = await createDepartment(uniqueName('Depot'));
      expectGrantRefused(await saveGrants('Department', dept, [devTypeOpKey(deviceType)], token), [
        devTypeOpKey(deviceType),
      ]);
      const holderToken = await tokenOf(holder.user);
      expectOk(await saveGrants('Department', dept, [devTypeOpKey(deviceType)], holderToken));
      expectGrantRefused(await saveGrants('Department', dept, [devTypeOpKey(other)], holderToken), [
        devTypeOpKey(other),
      ]);
      expect(await grantsOf('Department', dept)).toEqual([devTypeOpKey(deviceType)]);
    });
  });

  describe('roles', () => {
    it('gives or takes a role, whatever the endpoint, only with every key of it', async () => {
      const mine = await createRole(uniqueName('mine'), [Permission.DeviceRead]);
      const beyond = await createRole(uniqueName('beyond'), [Permission.DeviceRead, Permission.ParamRead]);
      const { token } = await userWith([
        Permission.StaffAssignRole,
        Permission.StaffCreate,
        Permission.StaffUpdate,
        Permission.DeviceRead,
      ]);
      const member = await t.createStaff();
      const staffForm = (extra: { roleIds: string[] }) => ({
        name: uniqueName('new'),
        staffType: 1 as const,
        password: STRONG_PASSWORD,
        ...extra,
      });

      expectOk(await assignRoles(member.id, [mine], token));
      expectGrantRefused(await assignRoles(member.id, [mine, beyond], token), [Permission.ParamRead]);
      expectGrantRefused(await assignRoles(member.id, [ADMIN_ROLE_ID], token), [EVERY_KEY]);
      for (const url of [api.staff.save, api.staff.saveStaffEx, api.staff.saveOrUpdate]) {
        expectGrantRefused(await post(url, staffForm({ roleIds: [beyond] }), token), [Permission.ParamRead]);
      }
      for (const url of [api.staff.update, api.staff.updateStaffEx, api.staff.saveOrUpdate]) {
        const form = { id: member.id, name: member.name, staffType: 1 as const, roleIds: [beyond] };
        expectGrantRefused(await post(url, form, token), [Permission.ParamRead]);
      }
      expect(await keysOf(member.id)).toEqual([Permission.DeviceRead]);

      // Taking a role away is handing its keys back: the same rule.
      expectOk(await assignRoles(member.id, [beyond]));
      expectGrantRefused(await assignRoles(member.id, [], token), [Permission.ParamRead]);
      expect(await keysOf(member.id)).toEqual([Permission.DeviceRead, Permission.ParamRead]);
    });
  });

  describe('departments', () => {
    it('moves a staff member, or a department, under departments with grants only for a holder of their keys', async () => {
      const region = await createDepartment(uniqueName('Region'));
      const depot = await createDepartment(uniqueName('Depot'), region);
      const plain = await createDepartment(uniqueName('Plain'));
      expectOk(await saveGrants('Department', region, [Permission.OpLogRead]));
      expectOk(await saveGrants('Department', depot, [Permission.ParamRead]));
      const { token } = await userWith([
        Permission.StaffCreate,
        Permission.StaffUpdate,
        Permission.DepartmentUpdate,
        Permission.ParamRead,
      ]);
      const member = await t.createStaff();
      const moveTo = (deptId: string | null) =>
        post(api.staff.update, { id: member.id, name: member.name, staffType: 1, deptId }, token);

      expectGrantRefused(await moveTo(depot), [Permission.OpLogRead]);
      expectGrantRefused(
        await post(
          api.staff.save,
          { name: uniqueName('new'), staffType: 1, password: STRONG_PASSWORD, deptId: region },
          token,
        ),
        [Permission.OpLogRead],
      );
      expectOk(await moveTo(plain));
      expect(await keysOf(member.id)).toEqual([]);

      // Moving the plain department under the depot would hand its staff the depot's and the region's keys.
      const department = (parentId: string | null) => ({
        id: plain,
        name: uniqueName('Plain'),
        deptType: 'Electric' as const,
        idxNo: 0,
        parentId,
      });
      expectGrantRefused(await post(api.department.update, department(depot), token), [Permission.OpLogRead]);
      expect(await keysOf(member.id)).toEqual([]);
      // Between departments whose differences the editor holds it may: the region's keys stay on both sides.
      const other = await createDepartment(uniqueName('Other'), region);
      expectOk(await post(api.department.update, department(other)));
      expectOk(await post(api.department.update, department(depot), token));
      expect(await keysOf(member.id)).toEqual([Permission.OpLogRead, Permission.ParamRead]);
    });
  });

  describe('accounts', () => {
    it('approves a registration, or resets a password, only for an account within the reviewer’s keys', async () => {
      const keyed = await createRole(uniqueName('keyed'), [Permission.ParamRead]);
      const pending = await t.createStaff({ status: 'pending' });
      expectOk(await assignRoles(pending.id, [keyed]));
      const [message] = await t.db
        .insert(sysMessage)
        .values({
          messageType: 'UserRegister',
          title: 'registration',
          name: pending.name,
          staffId: pending.id,
        })
        .returning({ id: sysMessage.id });
      const { token } = await userWith([Permission.RegistrationReview, Permission.StaffResetPassword]);

      expectGrantRefused(
        await post(api.registration.reviewRegistration, { id: message!.id, approve: true }, token),
        [Permission.ParamRead],
      );
      const [still] = await t.db.select().from(staff).where(eq(staff.id, pending.id));
      expect(still?.status).toBe('pending');
      expectOk(await post(api.registration.reviewRegistration, { id: message!.id, approve: true }));

      expectGrantRefused(await get(api.staff.resetPwd, { id: pending.id }, token), [Permission.ParamRead]);
      const peer = await t.createStaff();
      expectOk(await get(api.staff.resetPwd, { id: peer.id }, token));
    });

    it('changes, disables or deletes an account only within the user’s keys: a helpdesk user cannot remove administrators', async () => {
      const helpdesk = [
        Permission.StaffRead,
        Permission.StaffUpdate,
        Permission.StaffEnable,
        Permission.StaffDelete,
      ];
      const { token } = await userWith(helpdesk);
      const administrator = await t.createStaff();
      expectOk(await assignRoles(administrator.id, [ADMIN_ROLE_ID]));
      const keyed = await t.createStaff({ permissions: [...helpdesk, Permission.ParamRead] });
      const peer = await t.createStaff({ permissions: [Permission.StaffRead] });
      const rowsOf = async () => {
        const page = await get(api.staff.queryPage, { pageIndex: 1, pageSize: 100 }, token);
        expectOk(page);
        return new Map(page.body.data.rows.map((row) => [row.id, row.abilities]));
      };
      const abilities = await rowsOf();
      for (const [target, keys] of [
        [administrator, undefined],
        [keyed, [Permission.ParamRead]],
      ] as const) {
        expect(abilities.get(target.id)).toMatchObject({
          update: false,
          enable: false,
          disable: false,
          resetPwd: false,
          delete: false,
        });
        const profile = {
          id: target.id,
          name: target.name,
          staffType: 1 as const,
          email: 'someone.else@example.com',
        };
        expectGrantRefused(await post(api.staff.update, profile, token), keys);
        expectGrantRefused(await get(api.staff.enable, { id: target.id, enable: 'false' }, token), keys);
        expectGrantRefused(await get(api.staff.del, { id: target.id }, token), keys);
        const [still] = await t.db.select().from(staff).where(eq(staff.id, target.id));
        expect(still).toMatchObject({ status: 'activated' });
        expect(still?.email).not.toBe('someone.else@example.com');
      }
      expect(abilities.get(peer.id)).toMatchObject({ update: true, disable: true, delete: true });
      expectOk(await post(api.staff.update, { id: peer.id, name: peer.name, staffType: 1 }, token));
      expectOk(await get(api.staff.enable, { id: peer.id, enable: 'false' }, token));
      expectOk(await get(api.staff.del, { id: peer.id }, token));
    });

    it('registers accounts without roles, departments or keys, whatever the form carries', async () => {
      const { registrationForm } = await import('@uiot/contracts');
      const parsed = registrationForm.parse({
        staffType: 1,
        name: 'someone',
        email: 'someone@example.com',
        verificationCode: 'ABC123',
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
        roleIds: [ADMIN_ROLE_ID],
        deptId: 'x',
        keys: ['role.grant'],
      });
      expect(Object.keys(parsed).sort()).toEqual(
        ['confirmPassword', 'email', 'name', 'password', 'staffType', 'verificationCode'].sort(),
      );
    });
  });

  /**
   * Over every mutating endpoint of the contract: a user holding every key but a crown of a few (and the
   * dynamic key of a device type) calls each with requests pointed at the ways keys change hands — its own
   * grants, role and department, a role holding the crown, a department holding it, role admin, a pending
   * registration and an account holding the crown. No activated account may come out with a crown key it
   * did not have, nor an account holding one be handed over by a password reset.
   */
  describe('over every mutating endpoint', () => {
    const CROWN: PermissionKey[] = [Permission.DevicePasswordView, Permission.OpLogRead];
    const mutating = ALL_ENDPOINTS.filter((e) => isMutating(e));
    const refusedBy = new Set<string>();

    /** The keys of every activated account made since `since` (the fixture's and the call's), in one query. */
    async function activatedKeys(since: Date): Promise<Map<string, Access>> {
      const rows = await t.db
        .select({
          id: staff.id,
          isAdmin: isAdminSql(sql`${staff.id}`),
          permissions: effectivePermissionsSql(sql`${staff.id}`, sql`${staff.deptId}`),
        })
        .from(staff)
        .where(and(eq(staff.status, 'activated'), gte(staff.createdAt, since)));
      return new Map(rows.map((r) => [r.id, { isAdmin: r.isAdmin, permissions: new Set(r.permissions) }]));
    }

    let passwordHash: string;
    beforeAll(async () => {
      passwordHash = await hashPassword(STRONG_PASSWORD);
    });

    /** An account straight in the database (no hashing per account: the suite makes many). */
    async function account(status: string, roleId?: string, deptId?: string): Promise<string> {
      const [row] = await t.db
        .insert(staff)
        .values({
          name: uniqueName('acct'),
          passwordHash,
          status,
          mustChangePassword: false,
          deptId: deptId ?? null,
        })
        .returning({ id: staff.id });
      if (roleId) await t.db.insert(staffRole).values({ staffId: row!.id, roleId });
      return row!.id;
    }

    async function grantedRole(keys: readonly string[]): Promise<string> {
      const [row] = await t.db
        .insert(role)
        .values({ name: uniqueName('role') })
        .returning({ id: role.id });
      await t.db
        .insert(permissionGrant)
        .values(keys.map((permission) => ({ subjectType: 'Role', subjectId: row!.id, permission })));
      return row!.id;
    }

    /** A fresh set of targets, and the user who tries them. */
    async function fixture() {
      const crown = [...CROWN, devTypeOpKey(deviceType)];
      const crownRole = await grantedRole(crown);
      const crownDept = await createDepartment(uniqueName('CrownDept'));
      await t.db
        .insert(permissionGrant)
        .values(crown.map((permission) => ({ subjectType: 'Department', subjectId: crownDept, permission })));
      const ownDept = await createDepartment(uniqueName('OwnDept'));
      const ownRole = await grantedRole(ALL_PERMISSIONS.filter((k) => !CROWN.includes(k)));
      const user = await account('activated', ownRole, ownDept);
      const victim = await account('activated', crownRole);
      const pending = await account('pending', crownRole);
      const [message] = await t.db
        .insert(sysMessage)
        .values({ messageType: 'UserRegister', title: 'registration', name: 'pending', staffId: pending })
        .returning({ id: sysMessage.id });
      const bystander = await account('activated');
      const common = {
        keys: [...ALL_PERMISSIONS, devTypeOpKey(deviceType)],
        roleIds: [crownRole],
        deptId: crownDept,
        parentId: crownDept,
        approve: true,
        password: STRONG_PASSWORD,
        staffType: 1,
      };
      const variants: Record<string, unknown>[] = [
        { ...common, subjectType: 'Staff', subjectId: user, id: user, staffId: user },
        {
          ...common,
          subjectType: 'Role',
          subjectId: ownRole,
          id: ownRole,
          staffId: user,
          roleIds: [ADMIN_ROLE_ID],
        },
        { ...common, subjectType: 'Department', subjectId: ownDept, id: ownDept, staffId: bystander },
        { ...common, id: victim, staffId: victim },
        { ...common, id: message!.id },
        { ...common, id: undefined },
        // A department alone, the roles left as they are.
        { ...common, roleIds: undefined, id: user, staffId: user },
        { ...common, roleIds: undefined, id: undefined },
      ];
      return { user, variants };
    }

    /** A session of the user as it was: a variant may have reset its password or held it at a change. */
    async function sessionOf(user: string): Promise<string> {
      await t.db
        .update(staff)
        .set({ mustChangePassword: false, status: 'activated' })
        .where(eq(staff.id, user));
      return (await t.services.sessions.create(user, '127.0.0.1')).token;
    }

    function request(endpoint: Endpoint, variant: Record<string, unknown>) {
      // The required fields as sampled, and the variant's values for the fields the schema declares (the
      // other optional ones are left out: a sampled telephone number or card id would fail validation first).
      const point = (required: unknown, declared: unknown): unknown => {
        if (Array.isArray(declared)) return variant.roleIds;
        if (!declared || typeof declared !== 'object') return required;
        const fields = { ...(required as Record<string, unknown>) };
        if ('name' in fields) fields.name = uniqueName('n');
        for (const key of Object.keys(declared)) if (key in variant) fields[key] = variant[key];
        return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      };
      const query = point(sampleQuery(endpoint), sampleQuery(endpoint, { allProperties: true }));
      const body = () =>
        point(sampleBody(endpoint) ?? {}, sampleBody(endpoint, { allProperties: true }) ?? {});
      return {
        query: Object.fromEntries(Object.entries(query as object).map(([k, v]) => [k, String(v)])),
        body: endpoint.method === 'POST' ? body() : undefined,
      };
    }

    it.each(mutating.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', async (_name, endpoint) => {
      const since = new Date(Date.now() - 1_000);
      const { user, variants } = await fixture();
      const grantor = await loadStaffAccess(t.db, user);
      for (const variant of variants) {
        const token = await sessionOf(user);
        const before = await activatedKeys(since);
        const { query, body } = request(endpoint, variant);
        const response = await injectEndpoint(t.app, endpoint, token, { query, body });
        let answer: { code?: number; data?: { password?: string } } = {};
        try {
          answer = response.json();
        } catch {
          // A file (an export): no keys change hands.
        }
        if (answer.code === ResultCode.GrantBeyondOwn) refusedBy.add(endpoint.path);
        const after = await activatedKeys(since);
        const gained: string[] = [];
        for (const [id, now] of after) {
          const was = before.get(id) ?? { isAdmin: false, permissions: new Set<string>() };
          if (now.isAdmin && !was.isAdmin) gained.push(`${id}:${EVERY_KEY}`);
          for (const key of now.permissions) if (!was.permissions.has(key)) gained.push(`${id}:${key}`);
        }
        if (answer.data?.password && typeof query.id === 'string') {
          const handed = await loadStaffAccess(t.db, query.id);
          if (handed.isAdmin) gained.push(`${query.id}:${EVERY_KEY}`);
          for (const key of handed.permissions) gained.push(`${query.id}:${key}`);
        }
        const beyond = gained.filter((entry) => {
          const key = entry.slice(entry.indexOf(':') + 1);
          return key === EVERY_KEY || !holdsKey(grantor, key);
        });
        expect(beyond, `${JSON.stringify(variant)} → ${response.body}`).toEqual([]);
      }
    });

    it('reached the rule through every way keys change hands', () => {
      expect([...refusedBy].sort()).toEqual(
        [
          api.department.update,
          api.permission.saveGrants,
          api.staff.assignRoleIds,
          api.staff.del,
          api.staff.enable,
          api.staff.resetPwd,
          api.staff.save,
          api.staff.saveOrUpdate,
          api.staff.saveStaffEx,
          api.staff.update,
          api.staff.updateStaffEx,
          api.registration.reviewRegistration,
        ]
          .map((e) => e.path)
          .sort(),
      );
    });
  });

  it('keeps the built-in admin able to give anything', async () => {
    const crownRole = await createRole(uniqueName('crown'), [Permission.OpLogRead]);
    const member = await t.createStaff();
    expectOk(await assignRoles(member.id, [crownRole, ADMIN_ROLE_ID]));
    expect(await keysOf(member.id)).toEqual([EVERY_KEY]);
    const [stored] = await t.db.select().from(role).where(eq(role.id, crownRole));
    expect(stored).toBeDefined();
  });
});
