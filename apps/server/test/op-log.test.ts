import { api, type Endpoint, envelope, homeOverview, ResultCode } from '@uiot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { permissionGrant, role as roleTable, staff } from '../src/modules/org/org.schema.ts';
import {
  ADMIN_NAME,
  ADMIN_PASSWORD,
  eventually,
  freshAddress,
  openTestApp,
  type TestApp,
  uniqueName,
  urlOf,
} from './support/app.ts';
import { databases } from './support/databases.ts';

type OpLogRow = typeof opLog.$inferSelect;

const NEW_PASSWORD = 'Logged-Never-42';

describe.each(databases)('operation log ($kind)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rowsOf = (userId: string, endpoint?: Endpoint) =>
    t.db
      .select()
      .from(opLog)
      .where(
        endpoint ? and(eq(opLog.userId, userId), eq(opLog.url, urlOf(endpoint))) : eq(opLog.userId, userId),
      );

  /** Rows are completed with their result after the reply is sent: waits for `count` completed rows. */
  const awaitRows = (userId: string, endpoint: Endpoint, count = 1) =>
    eventually(async () => {
      const rows = (await rowsOf(userId, endpoint)).filter((r) => r.resultCode !== null);
      return rows.length >= count ? rows : undefined;
    });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('writes one row for a call to updateMyInfo, with who, where, what and when', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    const ip = freshAddress();
    const before = Date.now();
    const response = await t.call(api.auth.updateMyInfo, {
      token,
      body: { telNo: '13800138000', email: 'op.log@example.com' },
      remoteAddress: ip,
    });
    expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });

    const [row] = await awaitRows(user.id, api.auth.updateMyInfo);
    await settle();
    // The user's sign-in and this call, nothing more.
    expect((await rowsOf(user.id)).map((r) => r.url).sort()).toEqual(
      [api.auth.loginCheck, api.auth.updateMyInfo].map(urlOf),
    );
    expect(row).toMatchObject<Partial<OpLogRow>>({
      ipAddr: ip,
      methodDesc: 'Change own telephone and email',
      methodName: 'auth/staff/updateMyInfo',
      methodType: 'POST',
      url: urlOf(api.auth.updateMyInfo),
      userId: user.id,
      userName: user.name,
      resultCode: ResultCode.Ok,
    });
    expect(row!.operateTime.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(row!.operateTime.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(JSON.parse(row!.methodArgs!)).toEqual({ telNo: '13800138000', email: 'op.log@example.com' });

    const [saved] = await t.db.select().from(staff).where(eq(staff.id, user.id));
    expect(saved).toMatchObject({ telNo: '13800138000', email: 'op.log@example.com' });
  });

  it('takes the user from the token, not from the body or the query', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    await t.callRaw({
      url: urlOf(api.auth.updateMyInfo),
      query: { userId: 'admin' },
      token,
      body: { email: 'who@example.com', userId: 'admin', userName: 'admin' },
    });
    const [row] = await awaitRows(user.id, api.auth.updateMyInfo);
    expect(row).toMatchObject({ userId: user.id, userName: user.name, url: urlOf(api.auth.updateMyInfo) });
  });

  it('never writes password values, whether the change succeeds or fails', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    const attempts = [
      { oldPwd: 'Wrong-Old-Pass-7', newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
    ];
    const codes: number[] = [];
    for (const body of attempts) codes.push((await t.call(api.auth.changePwd, { token, body })).body.code);
    expect(codes).toEqual([ResultCode.OldPasswordWrong, ResultCode.Ok]);

    const rows = await awaitRows(user.id, api.auth.changePwd, attempts.length);
    await settle();
    expect(await rowsOf(user.id, api.auth.changePwd)).toHaveLength(attempts.length);
    expect(rows.map((r) => r.resultCode).sort()).toEqual([...codes].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        methodType: 'POST',
        methodDesc: 'Change own password',
        userName: user.name,
      });
      for (const secret of [user.password, NEW_PASSWORD, 'Wrong-Old-Pass-7']) {
        expect(row.methodArgs ?? '').not.toContain(secret);
      }
      expect(JSON.parse(row.methodArgs!)).toEqual({ oldPwd: '***', newPwd: '***', confirmPwd: '***' });
    }
  });

  const signInRows = (userName: string) =>
    t.db
      .select()
      .from(opLog)
      .where(and(eq(opLog.url, urlOf(api.auth.loginCheck)), eq(opLog.userName, userName)));

  it('writes a sign-in with the user signed in as, without its password', async () => {
    const user = await t.createStaff();
    const ip = freshAddress();
    await t.signIn(user.name, user.password, ip);
    const [row] = await eventually(async () => {
      const rows = await rowsOf(user.id, api.auth.loginCheck);
      return rows.length > 0 ? rows : undefined;
    });
    expect(row).toMatchObject<Partial<OpLogRow>>({
      userId: user.id,
      userName: user.name,
      ipAddr: ip,
      methodDesc: 'Sign in',
      methodName: 'auth/staff/loginCheck',
      methodType: 'POST',
      resultCode: ResultCode.Ok,
    });
    expect(JSON.parse(row!.methodArgs!)).toEqual({ name: user.name, pwd: '***' });
    expect(row!.methodArgs).not.toContain(user.password);
  });

  it("names the account signed in to even when the call carries another user's token", async () => {
    const user = await t.createStaff();
    const other = await t.createStaff();
    const otherToken = await t.signIn(other.name, other.password);
    const response = await t.call(api.auth.loginCheck, {
      token: otherToken,
      body: { name: user.name, pwd: user.password },
      remoteAddress: freshAddress(),
    });
    expect(response.body.success).toBe(true);
    const [row] = await awaitRows(user.id, api.auth.loginCheck);
    expect(row).toMatchObject({ userId: user.id, userName: user.name });
    await settle();
    expect(await rowsOf(other.id, api.auth.loginCheck)).toHaveLength(1);
  });

  it('writes a failed sign-in with the name tried, no user id and no password', async () => {
    const user = await t.createStaff();
    const wrong = 'Wrong-Secret-77';
    const unknown = `nobody_${user.name}`;
    const attempts = [
      { name: user.name, pwd: wrong },
      { name: `  ${unknown}  `, pwd: user.password },
    ];
    for (const body of attempts) {
      const response = await t.call(api.auth.loginCheck, { body, remoteAddress: freshAddress() });
      expect(response.body.code).toBe(ResultCode.LoginFailed);
    }
    const [failed] = await eventually(async () => {
      const rows = await signInRows(user.name);
      return rows.length > 0 ? rows : undefined;
    });
    const [strange] = await eventually(async () => {
      const rows = await signInRows(unknown);
      return rows.length > 0 ? rows : undefined;
    });
    for (const row of [failed!, strange!]) {
      expect(row).toMatchObject({ userId: null, resultCode: ResultCode.LoginFailed, methodDesc: 'Sign in' });
      expect(JSON.parse(row.methodArgs!).pwd).toBe('***');
      expect(row.methodArgs).not.toContain(wrong);
      expect(row.methodArgs).not.toContain(user.password);
    }
    expect(failed!.userName).toBe(user.name);
    expect(strange!.userName).toBe(unknown);
    await settle();
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it('writes nothing for reading calls', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    for (const url of [
      api.auth.getUserInfo,
      api.auth.queryMenuRight,
      api.auth.isFirstLogin,
      api.system.getFeatureFlags,
      api.home.getHomeOverview,
    ]) {
      expect((await t.call(url, { token })).status, url.path).toBe(200);
    }
    // A later write of the same user shows the hook has run for the reads before it.
    await t.call(api.auth.updateMyInfo, { token, body: { email: 'reads@example.com' } });
    await awaitRows(user.id, api.auth.updateMyInfo);
    await settle();
    expect((await rowsOf(user.id)).map((r) => r.url).sort()).toEqual(
      [api.auth.loginCheck, api.auth.updateMyInfo].map(urlOf),
    );
  });

  it('writes nothing for a call refused before its handler: invalid input, no session, no permission', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    const ip = freshAddress();
    const refused = [
      {
        url: urlOf(api.auth.changePwd),
        token,
        body: { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: 'Mismatch-Pass-8' },
        status: 400,
      },
      { url: urlOf(api.auth.updateMyInfo), token: null, body: { email: 'anon@example.com' }, status: 401 },
      {
        url: urlOf(api.permission.saveGrants),
        token,
        body: { subjectType: 'Role', subjectId: 'admin', keys: [] },
        status: 403,
      },
    ];
    for (const call of refused) {
      const response = await t.callRaw({
        url: call.url,
        token: call.token,
        body: call.body,
        remoteAddress: ip,
      });
      expect(response.status, call.url).toBe(call.status);
    }
    // A later accepted call from the same address shows the hook has run for the refused ones.
    await t.call(api.auth.updateMyInfo, {
      token,
      body: { email: 'after@example.com' },
      remoteAddress: ip,
    });
    await awaitRows(user.id, api.auth.updateMyInfo);
    await settle();
    const rows = await t.db.select().from(opLog).where(eq(opLog.ipAddr, ip));
    expect(rows.map((r) => r.url)).toEqual([api.auth.updateMyInfo].map(urlOf));
  });

  describe('finding 1: a change is never made without its operation-log row', () => {
    const grantsOf = (roleId: string) =>
      t.db.select().from(permissionGrant).where(eq(permissionGrant.subjectId, roleId));
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    /** Grants `staff.read` to a new role by the admin, the body carrying `x` nested `depth` deep. */
    const saveGrantsWith = async (depth: number, lang?: string) => {
      const admin = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
      const [role] = await t.db
        .insert(roleTable)
        .values({ name: uniqueName('role') })
        .returning();
      const ip = freshAddress();
      const response = await t.call(api.permission.saveGrants, {
        token: admin,
        payload: `{"subjectType":"Role","subjectId":"${role!.id}","keys":["staff.read"],"x":${nested(depth)}}`,
        contentType: 'application/json',
        remoteAddress: ip,
        ...(lang ? { lang } : {}),
      });
      return { roleId: role!.id, ip, response };
    };

    it.each([
      ['zh-CN', '提交的内容嵌套层级过深（最多 64 层）'],
      ['en', 'The submitted content is nested too deeply (at most 64 levels)'],
      ['zh-TW', '提交的內容嵌套層級過深（最多 64 層）'],
    ])(
      'refuses a body nested 5 000 deep with 400 before anything runs (%s), and changes nothing',
      async (lang, message) => {
        const { roleId, ip, response } = await saveGrantsWith(5_000, lang);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, data: null, code: ResultCode.InputTooDeep, message });
        await settle();
        expect(await grantsOf(roleId)).toEqual([]);
        expect(await t.db.select().from(opLog).where(eq(opLog.ipAddr, ip))).toEqual([]);
      },
    );

    it('takes a body nested 64 deep, and writes its row with the validated input only', async () => {
      // The object holding "x" is level 1: "x" nested 63 deep reaches 64 levels, the deepest allowed.
      const { roleId, ip, response } = await saveGrantsWith(63);
      expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });
      expect((await grantsOf(roleId)).map((g) => g.permission)).toEqual(['staff.read']);
      const [row] = await eventually(async () => {
        const rows = await t.db.select().from(opLog).where(eq(opLog.ipAddr, ip));
        return rows[0]?.resultCode === ResultCode.Ok ? rows : undefined;
      });
      // The key the schema drops is not described: the row tells what the change was made with.
      expect(JSON.parse(row!.methodArgs!)).toEqual({
        subjectType: 'Role',
        subjectId: roleId,
        keys: ['staff.read'],
      });
      expect(row).toMatchObject({ userId: 'admin', url: urlOf(api.permission.saveGrants) });
    });

    describe('with the operation log unwritable', () => {
      const refuse = (event: 'insert' | 'update') => [
        sql.raw(`create function op_log_refuse_${event}() returns trigger language plpgsql as
          $$ begin raise exception 'op_log refuses ${event}'; end $$`),
        sql.raw(`create trigger op_log_refuse_${event} before ${event} on op_log
          for each row execute function op_log_refuse_${event}()`),
      ];
      const allow = (event: 'insert' | 'update') => [
        sql.raw(`drop trigger op_log_refuse_${event} on op_log`),
        sql.raw(`drop function op_log_refuse_${event}()`),
      ];
      const run = async (statements: ReturnType<typeof sql.raw>[]) => {
        for (const statement of statements) await t.db.execute(statement);
      };

      it('refuses a valid change (500) and leaves the data as it was', async () => {
        const user = await t.createStaff();
        const token = await t.signIn(user.name, user.password);
        await run(refuse('insert'));
        try {
          const response = await t.call(api.auth.updateMyInfo, {
            token,
            body: { email: 'unaudited@example.com' },
            lang: 'en',
          });
          expect(response.status).toBe(500);
          expect(response.body).toEqual({
            success: false,
            data: null,
            code: ResultCode.Internal,
            message: 'Internal server error',
          });
        } finally {
          await run(allow('insert'));
        }
        const [saved] = await t.db.select().from(staff).where(eq(staff.id, user.id));
        expect(saved!.email).not.toBe('unaudited@example.com');
        expect(await rowsOf(user.id, api.auth.updateMyInfo)).toEqual([]);
      });

      it('keeps a change whose row was written but could not be completed: its result reads unknown', async () => {
        const user = await t.createStaff();
        const token = await t.signIn(user.name, user.password);
        await settle();
        await run(refuse('update'));
        try {
          const response = await t.call(api.auth.updateMyInfo, {
            token,
            body: { email: 'audited@example.com' },
          });
          expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });
          await settle();
        } finally {
          await run(allow('update'));
        }
        const [saved] = await t.db.select().from(staff).where(eq(staff.id, user.id));
        expect(saved!.email).toBe('audited@example.com');
        const rows = await rowsOf(user.id, api.auth.updateMyInfo);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ resultCode: null, userName: user.name });
        expect(JSON.parse(rows[0]!.methodArgs!)).toEqual({ email: 'audited@example.com' });
      });
    });
  });

  describe('home overview', () => {
    const overview = async (token: string) => {
      const response = await t.call(api.home.getHomeOverview, { token });
      expect(response.status).toBe(200);
      return envelope(homeOverview).parse(response.body).data;
    };

    it('has no previous sign-in and no operations for a new user', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      expect(await overview(token)).toEqual({ lastLogin: null, loginCount30d: 1, recentOperations: [] });
    });

    it('tells the previous sign-in and the recent operations of the user only', async () => {
      const user = await t.createStaff();
      const firstIp = freshAddress();
      await t.signIn(user.name, user.password, firstIp);
      const token = await t.signIn(user.name, user.password);
      const other = await t.createStaff();
      const otherToken = await t.signIn(other.name, other.password);

      await t.call(api.auth.updateMyInfo, { token, body: { email: 'first@example.com' } });
      await awaitRows(user.id, api.auth.updateMyInfo);
      await t.call(api.auth.updateMyInfo, {
        token: otherToken,
        body: { email: 'other@example.com' },
      });
      await awaitRows(other.id, api.auth.updateMyInfo);

      const data = await overview(token);
      expect(data.lastLogin?.ipAddr).toBe(firstIp);
      expect(Number.isNaN(Date.parse(data.lastLogin!.loginTime))).toBe(false);
      expect(data.loginCount30d).toBe(2);
      expect(data.recentOperations).toHaveLength(1);
      expect(data.recentOperations[0]).toMatchObject({
        methodDesc: 'Change own telephone and email',
        url: urlOf(api.auth.updateMyInfo),
      });
    });

    it('lists the newest operations first', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      await t.call(api.auth.updateMyInfo, { token, body: { email: 'one@example.com' } });
      await awaitRows(user.id, api.auth.updateMyInfo);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await t.call(api.auth.changePwd, {
        token,
        body: { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      });
      await awaitRows(user.id, api.auth.changePwd);
      const urls = (await overview(token)).recentOperations.map((op) => op.url);
      expect(urls).toEqual([api.auth.changePwd, api.auth.updateMyInfo].map(urlOf));
    });
  });
});
