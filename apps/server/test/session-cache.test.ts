import {
  api,
  type Endpoint,
  type EndpointQuery,
  Permission,
  type PermissionKey,
  ResultCode,
  type UserInfo,
} from '@uiot/contracts';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from '../src/db/client.ts';
import { listenerConfigOf } from '../src/infra/database-listener.ts';
import { SILENT_LOGGER } from '../src/lib/module-logger.ts';
import { hashToken } from '../src/lib/password-hash.ts';
import { releasable } from '../src/lib/test-support.ts';
import { SessionService } from '../src/modules/auth/session.service.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import {
  ADMIN_NAME,
  ADMIN_PASSWORD,
  createTestApp,
  eventually,
  openTestApp,
  type TestApp,
  type TestStaff,
  uniqueName,
} from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';

const NEW_PASSWORD = 'Changed-Pass-475';
// An endpoint that needs staff.read.

/** `db`, whose select queries run `pause` after the rows are read and before the caller gets them. */
function pausedAfterSelects(db: Db, pause: () => Promise<void>): Db {
  const paused = (builder: object): object =>
    new Proxy(builder, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'then') {
          const then = value as PromiseLike<unknown>['then'];
          return (ok?: (rows: unknown) => unknown, fail?: (error: unknown) => unknown) =>
            then
              .call(target, async (rows: unknown) => {
                await pause();
                return rows;
              })
              .then(ok, fail);
        }
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result: unknown = value.apply(target, args);
          return typeof result === 'object' && result !== null ? paused(result) : result;
        };
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => paused(value.apply(target, args) as object);
    },
  });
}

/** An endpoint that needs staff.read, and one gated by the ShowCmd flag: both paged. */
const NEEDS_STAFF_READ = api.staff.queryPage;
const RECORDS = api.deviceCommand.queryPage;
const PAGED: ReadonlySet<Endpoint> = new Set([NEEDS_STAFF_READ, RECORDS]);
const FIRST_PAGE = { pageIndex: 1, pageSize: 10 };

describe.each(databases)('sessions served from memory ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, assignRoles, createDepartment, createRole } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Calls with a token (and a first page, for the paged queries). */
  const call = <E extends Endpoint>(endpoint: E, token: string, app = t) =>
    app.call(endpoint, { token, ...(PAGED.has(endpoint) ? { query: FIRST_PAGE as EndpointQuery<E> } : {}) });
  const status = async (endpoint: Endpoint, token: string, app = t) =>
    (await call(endpoint, token, app)).status;

  /** Signs the user in and makes a first request, after which the session is served from memory. */
  async function heldSession(user: TestStaff, app = t): Promise<string> {
    const token = await app.signIn(user.name, user.password);
    expect(await status(api.auth.getUserInfo, token, app)).toBe(200);
    expect(app.services.sessions.holds(hashToken(token))).toBe(true);
    return token;
  }

  /** Replaces the keys granted to a role, staff member or department. */
  const grant = (subjectType: 'Role' | 'Staff' | 'Department', subjectId: string, keys: string[]) =>
    post(api.permission.saveGrants, { subjectType, subjectId, keys });

  /** A staff member holding `keys` through a role of its own; returns the user and the role. */
  async function withRole(keys: readonly PermissionKey[]) {
    const roleId = await createRole(uniqueName('Role'), keys);
    const user = await t.createStaff();
    expectOk(await assignRoles(user.id, [roleId]));
    return { user, roleId };
  }

  it('answers from memory, and drops a session on the notice alone', async () => {
    const user = await t.createStaff();
    const token = await heldSession(user);
    const tokenHash = hashToken(token);
    // Revoked behind the triggers' back: the session is still served from memory...
    await t.db.execute(sql`alter table session disable trigger session_change`);
    try {
      await t.db.execute(sql`update session set revoked_at = now() where token_hash = ${tokenHash}`);
    } finally {
      await t.db.execute(sql`alter table session enable trigger session_change`);
    }
    expect(await status(api.auth.getUserInfo, token)).toBe(200);
    // ...until the change is announced.
    await t.db.execute(sql`select pg_notify('uiot_session_change', ${`session:${tokenHash}`})`);
    expect(t.services.sessions.holds(tokenHash)).toBe(false);
    expect(await status(api.auth.getUserInfo, token)).toBe(401);
  });

  it('refuses a session at once after sign-out', async () => {
    const token = await heldSession(await t.createStaff());
    expectOk(await call(api.auth.logout, token));
    expectCode(await call(api.auth.getUserInfo, token), ResultCode.Unauthenticated);
  });

  it('refuses the sessions of a disabled account at once, and admits it again once enabled', async () => {
    const user = await t.createStaff();
    const token = await heldSession(user);
    expectOk(await get(api.staff.enable, { id: user.id, enable: 'false' }));
    expect(await status(api.auth.getUserInfo, token)).toBe(401);
    expectOk(await get(api.staff.enable, { id: user.id, enable: 'true' }));
    await heldSession(user);
  });

  it('ends the other sessions at a password change and keeps the current one', async () => {
    const user = await t.createStaff();
    const current = await heldSession(user);
    const other = await heldSession(user);
    expectOk(
      await post(
        api.auth.changePwd,
        { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
        current,
      ),
    );
    expect(await status(api.auth.getUserInfo, other)).toBe(401);
    expect(await status(api.auth.getUserInfo, current)).toBe(200);
  });

  it('ends the sessions at a password reset by an administrator', async () => {
    const user = await t.createStaff();
    const token = await heldSession(user);
    expectOk(await get(api.staff.resetPwd, { id: user.id }));
    expect(await status(api.auth.getUserInfo, token)).toBe(401);
  });

  it('ends the sessions of a deleted staff member', async () => {
    const user = await t.createStaff();
    const token = await heldSession(user);
    expectOk(await get(api.staff.del, { id: user.id }));
    // An endpoint that does not read the user's row itself.
    expect(await status(api.role.getAll, token)).toBe(401);
  });

  it('follows the grants of a role at once, both ways', async () => {
    const { user, roleId } = await withRole([Permission.StaffRead]);
    const token = await heldSession(user);
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
    expectOk(await grant('Role', roleId, []));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
    expectOk(await grant('Role', roleId, [Permission.StaffRead]));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
  });

  it('takes the keys of a deleted role at once', async () => {
    const { user, roleId } = await withRole([Permission.StaffRead]);
    const token = await heldSession(user);
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
    expectOk(await get(api.role.del, { id: roleId }));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
  });

  it('follows the roles assigned to a staff member at once', async () => {
    const { user, roleId } = await withRole([Permission.StaffRead]);
    const token = await heldSession(user);
    expectOk(await assignRoles(user.id, []));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
    expectOk(await assignRoles(user.id, [roleId]));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
  });

  it("follows a staff member's own grants at once", async () => {
    const user = await t.createStaff();
    const token = await heldSession(user);
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
    expectOk(await grant('Staff', user.id, [Permission.StaffRead]));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
    expectOk(await grant('Staff', user.id, []));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
  });

  it('follows the grants of the departments above a staff member, and the moves of departments', async () => {
    const top = await createDepartment(uniqueName('Top'));
    const middle = await createDepartment(uniqueName('Middle'), top);
    const user = await t.createStaff();
    await t.db.update(staff).set({ deptId: middle }).where(eq(staff.id, user.id));
    const token = await heldSession(user);
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
    // A grant of the department above.
    expectOk(await grant('Department', top, [Permission.StaffRead]));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
    // The user's department moves away from under it.
    expectOk(
      await post(api.department.update, { id: middle, name: uniqueName('Middle'), deptType: 'Electric' }),
    );
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
    // And back.
    expectOk(
      await post(api.department.update, {
        id: middle,
        name: uniqueName('Middle'),
        deptType: 'Electric',
        parentId: top,
      }),
    );
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
  });

  it('follows a staff member moved to another department, and a new name', async () => {
    const granted = await createDepartment(uniqueName('Granted'));
    expectOk(await grant('Department', granted, [Permission.StaffRead]));
    const user = await t.createStaff();
    const token = await heldSession(user);
    const name = uniqueName('Renamed');
    expectOk(await post(api.staff.update, { id: user.id, name, staffType: 1, deptId: granted }));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(200);
    expect((await t.services.sessions.resolve(token))?.staffName).toBe(name);
    expectOk(await post(api.staff.update, { id: user.id, name, staffType: 1, deptId: '' }));
    expect(await status(NEEDS_STAFF_READ, token)).toBe(403);
  });

  it("shows at once in the user's profile a change of its own fields, its department's name and its roles' names", async () => {
    const deptId = await createDepartment(uniqueName('Dept'));
    const { user, roleId } = await withRole([]);
    expectOk(await post(api.staff.update, { id: user.id, name: user.name, staffType: 1, deptId }));
    const token = await heldSession(user);
    const info = async () => (await call(api.auth.getUserInfo, token)).body.data as UserInfo;
    expect((await info()).deptName).not.toBeNull();
    // Kept with the session from now on: a change made behind the triggers' back is not seen...
    await t.db.execute(sql`alter table staff disable trigger session_change`);
    try {
      await t.db.update(staff).set({ email: 'unseen@example.com' }).where(eq(staff.id, user.id));
    } finally {
      await t.db.execute(sql`alter table staff enable trigger session_change`);
    }
    expect((await info()).email).not.toBe('unseen@example.com');
    // ...until it is announced.
    await t.db.execute(sql`select pg_notify('uiot_session_change', ${`staff:${user.id}`})`);
    expect((await info()).email).toBe('unseen@example.com');

    expectOk(
      await t.call(api.auth.updateMyInfo, {
        token,
        body: { telNo: '13800138000', email: 'me@example.com' },
      }),
    );
    expect(await info()).toMatchObject({ telNo: '13800138000', email: 'me@example.com' });
    await t.db.update(staff).set({ avatar: 'data:image/png;base64,AA==' }).where(eq(staff.id, user.id));
    expect((await info()).avatar).toBe('data:image/png;base64,AA==');

    const deptName = uniqueName('Renamed dept');
    expectOk(
      await post(api.department.update, {
        id: deptId,
        name: deptName,
        deptType: 'Electric',
        parentId: null,
        idxNo: 0,
      }),
    );
    expect((await info()).deptName).toBe(deptName);

    const roleName = uniqueName('Renamed role');
    expectOk(await post(api.role.update, { id: roleId, name: roleName, roleType: 'JobLeader' }));
    expect((await info()).roles).toEqual([roleName]);
    expectOk(await get(api.role.del, { id: roleId }));
    expect((await info()).roles).toEqual([]);
  });

  it('holds a user at the forced password change as soon as ChangePwdByFirstLogin is turned on', async () => {
    const setForced = async (val: string) => {
      const rows = (await get(api.params.getAll)).body.data;
      const { id, name, valType, cls, defVal, desc, group } = rows.find(
        (r) => r.name === 'ChangePwdByFirstLogin',
      )!;
      expectOk(await post(api.params.update, { id, name, valType, val, cls, defVal, desc, group }));
    };
    const user = await t.createStaff({ mustChangePassword: true });
    try {
      await setForced('false');
      const token = await heldSession(user);
      expect(await status(api.home.getHomeOverview, token)).toBe(200);
      await setForced('true');
      const held = await call(api.home.getHomeOverview, token);
      expect([held.status, held.body.code]).toEqual([403, ResultCode.PasswordChangeRequired]);
      await setForced('false');
      expect(await status(api.home.getHomeOverview, token)).toBe(200);
    } finally {
      await setForced('true');
    }
  });

  it('serves the feature flags from memory, and follows a flag switched at once', async () => {
    const admin = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
    const gated = async () => (await call(RECORDS, admin)).body.code;
    try {
      expect(await gated()).toBe(ResultCode.Ok);
      // Switched off behind the trigger's back: the flags in memory still say on...
      await t.db.execute(sql`alter table param disable trigger session_change`);
      try {
        await t.db.execute(sql`update param set val = 'false' where name = 'ShowCmd'`);
      } finally {
        await t.db.execute(sql`alter table param enable trigger session_change`);
      }
      expect(await gated()).toBe(ResultCode.Ok);
      // ...until a change is announced.
      await t.db.execute(sql`select pg_notify('uiot_session_change', 'all')`);
      expect(await gated()).toBe(ResultCode.FeatureDisabled);
      // A flag switched as the console does is announced by the trigger: at once, both ways.
      await t.setParam('ShowCmd', 'true');
      expect(await gated()).toBe(ResultCode.Ok);
      await t.setParam('ShowCmd', 'false');
      expect(await gated()).toBe(ResultCode.FeatureDisabled);
      const menus = (await call(api.auth.getUserInfo, admin)).body.data as UserInfo;
      expect(menus.menus).not.toContain('DeviceCommand');
    } finally {
      await t.setParam('ShowCmd', 'true');
    }
  });

  it('does not keep what it read before a revocation heard while the read was on its way', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    let revoked = false;
    // The revocation commits (and is heard) after the read, before the service goes on with what it read.
    const db = pausedAfterSelects(t.db, async () => {
      if (revoked) return;
      revoked = true;
      await t.services.sessions.revokeAllOf(user.id);
    });
    const here = new SessionService(db, { idleSeconds: 3600, maxSeconds: 7200 });
    const stop = await here.start(t.database, SILENT_LOGGER);
    try {
      // The read was made before the revocation: this request still sees the session.
      expect(await here.resolve(token)).not.toBeNull();
      expect(revoked).toBe(true);
      expect(here.holds(hashToken(token))).toBe(false);
      expect(await here.resolve(token)).toBeNull();
    } finally {
      await stop();
    }
  });

  it('reads a session once for requests that miss together, and again for one made after a change', async () => {
    const user = await t.createStaff();
    const other = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    let reads = 0;
    const { promise: held, release } = releasable();
    const here = new SessionService(
      pausedAfterSelects(t.db, async () => {
        reads++;
        await held;
      }),
      { idleSeconds: 3600, maxSeconds: 7200 },
    );
    const stop = await here.start(t.database, SILENT_LOGGER);
    try {
      const together = [here.resolve(token), here.resolve(token), here.resolve(token)];
      // Any change heard while that read is under way: a request after it reads for itself.
      await t.db
        .update(staff)
        .set({ name: uniqueName('Other') })
        .where(eq(staff.id, other.id));
      const after = here.resolve(token);
      release();
      for (const resolved of await Promise.all([...together, after])) expect(resolved?.staffId).toBe(user.id);
      expect(reads).toBe(2);
    } finally {
      await stop();
    }
  });

  describe('expiry (controlled clock)', () => {
    const IDLE_S = 60;
    const MAX_S = 300;
    let now = new Date('2030-01-01T00:00:00Z').getTime();
    const clock = () => new Date(now);
    const stops: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
    });

    /** An instance on the same database; `started` serves from memory and queues its idle pushes. */
    async function instance(started: boolean): Promise<SessionService> {
      const sessions = new SessionService(t.db, { idleSeconds: IDLE_S, maxSeconds: MAX_S }, clock);
      if (started) stops.push(await sessions.start(t.database, SILENT_LOGGER));
      return sessions;
    }

    it('asks the database before refusing a session idle here, which another instance kept alive', async () => {
      const here = await instance(true);
      const user = await t.createStaff();
      const start = now;
      const { token } = await here.create(user.id, '10.0.0.1');
      expect(await here.resolve(token)).not.toBeNull();
      expect(here.holds(hashToken(token))).toBe(true);
      // Another instance (writing its idle push at once) serves it 50 s later.
      const elsewhere = await instance(false);
      now = start + 50_000;
      expect(await elsewhere.resolve(token)).not.toBeNull();
      // Idle here since the start, alive there.
      now = start + 70_000;
      expect(await here.stands(hashToken(token))).toBe(true);
      expect(await here.resolve(token)).not.toBeNull();
      // Used here at +70 s: that use keeps it alive here, whatever the database says.
      now = start + 125_000;
      expect(await here.resolve(token)).not.toBeNull();
      // Idle here and there.
      now = start + 185_000;
      expect(await here.resolve(token)).toBeNull();
      expect(await here.stands(hashToken(token))).toBe(false);
    });

    it("writes this instance's idle pushes, so another instance does not refuse the session", async () => {
      const here = await instance(true);
      const user = await t.createStaff();
      const start = now;
      const { token } = await here.create(user.id, '10.0.0.1');
      now = start + 40_000;
      expect(await here.resolve(token)).not.toBeNull();
      // Stopping writes what is queued (the idle push of +40 s).
      await stops.pop()?.();
      const elsewhere = await instance(false);
      now = start + 99_000;
      expect(await elsewhere.stands(hashToken(token))).toBe(true);
      now = start + 100_000;
      expect(await elsewhere.stands(hashToken(token))).toBe(false);
    });

    it('refuses a session held in memory at its absolute end', async () => {
      const here = await instance(true);
      const user = await t.createStaff();
      const created = now;
      const { token } = await here.create(user.id, '10.0.0.1');
      for (let at = 0; at < MAX_S * 1000; at += 45_000) {
        now = created + at;
        expect(await here.resolve(token), `at +${at / 1000} s`).not.toBeNull();
      }
      now = created + MAX_S * 1000 - 1;
      expect(await here.resolve(token)).not.toBeNull();
      expect(here.holds(hashToken(token))).toBe(true);
      now = created + MAX_S * 1000;
      expect(await here.resolve(token)).toBeNull();
    });
  });

  describe.runIf(kind.kind === 'postgres')('several instances on one PostgreSQL', () => {
    let other: TestApp;
    let url: string;

    beforeAll(async () => {
      url = listenerConfigOf(t.db)!.connectionString!;
      // A second instance: its own pool, its own listening connection, the same database.
      const database = await openPostgres(url, 3);
      other = await createTestApp(database as TestDatabase);
    });
    afterAll(async () => {
      await other?.close();
    });

    /** Polls the other instance until `url` answers `expected` (the notice's delivery, nothing more). */
    const becomes = (token: string, endpoint: Endpoint, expected: number) =>
      eventually(async () => ((await status(endpoint, token, other)) === expected ? true : undefined), 5_000);

    it('refuses a session signed out on another instance', async () => {
      const user = await t.createStaff();
      const token = await heldSession(user);
      expect(await status(api.auth.getUserInfo, token, other)).toBe(200);
      expect(other.services.sessions.holds(hashToken(token))).toBe(true);
      expectOk(await call(api.auth.logout, token));
      await becomes(token, api.auth.getUserInfo, 401);
    });

    it('refuses the sessions of an account disabled on another instance', async () => {
      const user = await t.createStaff();
      const token = await heldSession(user, other);
      expectOk(await get(api.staff.enable, { id: user.id, enable: 'false' }));
      await becomes(token, api.auth.getUserInfo, 401);
    });

    it('follows grants changed on another instance', async () => {
      const { user, roleId } = await withRole([]);
      const token = await heldSession(user, other);
      expect(await status(NEEDS_STAFF_READ, token, other)).toBe(403);
      expectOk(await grant('Role', roleId, [Permission.StaffRead]));
      await becomes(token, NEEDS_STAFF_READ, 200);
      expectOk(await get(api.role.del, { id: roleId }));
      await becomes(token, NEEDS_STAFF_READ, 403);
    });

    it('follows a feature flag switched on another instance', async () => {
      const admin = await other.signIn(ADMIN_NAME, ADMIN_PASSWORD);
      try {
        expect(await status(RECORDS, admin, other)).toBe(200);
        await t.setParam('ShowCmd', 'false');
        await eventually(
          async () =>
            (await call(RECORDS, admin, other)).body.code === ResultCode.FeatureDisabled ? true : undefined,
          5_000,
        );
      } finally {
        await t.setParam('ShowCmd', 'true');
      }
    });

    it('shows in the profile a role renamed on another instance', async () => {
      const { user, roleId } = await withRole([]);
      const token = await heldSession(user, other);
      const name = uniqueName('Renamed role');
      expectOk(await post(api.role.update, { id: roleId, name, roleType: 'JobLeader' }));
      await eventually(async () => {
        const info = (await call(api.auth.getUserInfo, token, other)).body.data as UserInfo;
        return info.roles[0] === name ? true : undefined;
      }, 5_000);
    });

    it('stops serving from memory while its listening connection is lost, and resumes once listening', async () => {
      const database = await openPostgres(url, 2);
      const sessions = new SessionService(database.db, { idleSeconds: 3600, maxSeconds: 7200 });
      // Listening again 2 s after the loss: long enough to see what it does meanwhile.
      const stop = await sessions.start(database, SILENT_LOGGER, { reconnectMs: 2_000 });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const user = await t.createStaff();
        const { token } = await sessions.create(user.id, null);
        const tokenHash = hashToken(token);
        expect(await sessions.resolve(token)).not.toBeNull();
        expect(sessions.holds(tokenHash)).toBe(true);
        await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = 'uiot-session change' and datname = current_database()`,
        );
        // Dropped as soon as the loss is seen, and not kept while it lasts.
        await eventually(async () => (sessions.holds(tokenHash) ? undefined : true), 1_500);
        expect(await sessions.resolve(token)).not.toBeNull();
        expect(sessions.holds(tokenHash)).toBe(false);
        // Listening again, it keeps sessions again.
        await eventually(async () => {
          expect(await sessions.resolve(token)).not.toBeNull();
          return sessions.holds(tokenHash) ? true : undefined;
        }, 10_000);
        // And hears the changes of others.
        await admin.query('update session set revoked_at = now() where token_hash = $1', [tokenHash]);
        await eventually(async () => ((await sessions.resolve(token)) === null ? true : undefined), 5_000);
      } finally {
        await admin.end();
        await stop();
        await database.close();
      }
    });
  });
});
