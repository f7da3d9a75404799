import { envelope, type HomeOverview, homeOverview, ResultCode } from '@uiot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { eventually, freshAddress, openTestApp, type TestApp } from './support/app.ts';
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

  const rowsOf = (userId: string, url?: string) =>
    t.db
      .select()
      .from(opLog)
      .where(url ? and(eq(opLog.userId, userId), eq(opLog.url, url)) : eq(opLog.userId, userId));

  /** The hook writes after the reply is sent: waits for `count` rows. */
  const awaitRows = (userId: string, url: string, count = 1) =>
    eventually(async () => {
      const rows = await rowsOf(userId, url);
      return rows.length >= count ? rows : undefined;
    });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('writes one row for a call to updateMyInfo, with who, where, what and when', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    const ip = freshAddress();
    const before = Date.now();
    const response = await t.call({
      url: '/api/staff/updateMyInfo',
      token,
      body: { telNo: '13800138000', email: 'op.log@example.com' },
      remoteAddress: ip,
    });
    expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });

    const [row] = await awaitRows(user.id, '/api/staff/updateMyInfo');
    await settle();
    // The user's sign-in and this call, nothing more.
    expect((await rowsOf(user.id)).map((r) => r.url).sort()).toEqual([
      '/api/staff/loginCheck',
      '/api/staff/updateMyInfo',
    ]);
    expect(row).toMatchObject<Partial<OpLogRow>>({
      ipAddr: ip,
      methodDesc: 'Change own telephone and email',
      methodName: 'auth/staff/updateMyInfo',
      methodType: 'POST',
      url: '/api/staff/updateMyInfo',
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
    await t.call({
      url: '/api/staff/updateMyInfo?userId=admin',
      token,
      body: { email: 'who@example.com', userId: 'admin', userName: 'admin' },
    });
    const [row] = await awaitRows(user.id, '/api/staff/updateMyInfo');
    expect(row).toMatchObject({ userId: user.id, userName: user.name, url: '/api/staff/updateMyInfo' });
  });

  it('never writes password values, whether the change succeeds or fails', async () => {
    const user = await t.createStaff();
    const token = await t.signIn(user.name, user.password);
    const attempts = [
      { oldPwd: 'Wrong-Old-Pass-7', newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: 'Mismatch-Pass-8' },
      { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
    ];
    const codes: number[] = [];
    for (const body of attempts)
      codes.push((await t.call({ url: '/api/staff/changePwd', token, body })).body.code);
    expect(codes).toEqual([ResultCode.OldPasswordWrong, ResultCode.InvalidInput, ResultCode.Ok]);

    const rows = await awaitRows(user.id, '/api/staff/changePwd', attempts.length);
    await settle();
    expect(await rowsOf(user.id, '/api/staff/changePwd')).toHaveLength(attempts.length);
    expect(rows.map((r) => r.resultCode).sort()).toEqual([...codes].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        methodType: 'POST',
        methodDesc: 'Change own password',
        userName: user.name,
      });
      for (const secret of [user.password, NEW_PASSWORD, 'Wrong-Old-Pass-7', 'Mismatch-Pass-8']) {
        expect(row.methodArgs ?? '').not.toContain(secret);
      }
      expect(JSON.parse(row.methodArgs!)).toEqual({ oldPwd: '***', newPwd: '***', confirmPwd: '***' });
    }
  });

  const signInRows = (userName: string) =>
    t.db
      .select()
      .from(opLog)
      .where(and(eq(opLog.url, '/api/staff/loginCheck'), eq(opLog.userName, userName)));

  it('writes a sign-in with the user signed in as, without its password', async () => {
    const user = await t.createStaff();
    const ip = freshAddress();
    await t.signIn(user.name, user.password, ip);
    const [row] = await eventually(async () => {
      const rows = await rowsOf(user.id, '/api/staff/loginCheck');
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
    const response = await t.call({
      url: '/api/staff/loginCheck',
      token: otherToken,
      body: { name: user.name, pwd: user.password },
      remoteAddress: freshAddress(),
    });
    expect(response.body.success).toBe(true);
    const [row] = await awaitRows(user.id, '/api/staff/loginCheck');
    expect(row).toMatchObject({ userId: user.id, userName: user.name });
    await settle();
    expect(await rowsOf(other.id, '/api/staff/loginCheck')).toHaveLength(1);
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
      const response = await t.call({ url: '/api/staff/loginCheck', body, remoteAddress: freshAddress() });
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
      '/api/staff/getUserInfo',
      '/api/staff/queryMenuRight',
      '/api/staff/isFirstLogin',
      '/api/params/getFeatureFlags',
      '/api/home/overview',
    ]) {
      expect((await t.call({ url, token })).status, url).toBe(200);
    }
    // A later write of the same user shows the hook has run for the reads before it.
    await t.call({ url: '/api/staff/updateMyInfo', token, body: { email: 'reads@example.com' } });
    await awaitRows(user.id, '/api/staff/updateMyInfo');
    await settle();
    expect((await rowsOf(user.id)).map((r) => r.url).sort()).toEqual([
      '/api/staff/loginCheck',
      '/api/staff/updateMyInfo',
    ]);
  });

  describe('home overview', () => {
    const overview = async (token: string) => {
      const response = await t.call<HomeOverview>({ url: '/api/home/overview', token });
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

      await t.call({ url: '/api/staff/updateMyInfo', token, body: { email: 'first@example.com' } });
      await awaitRows(user.id, '/api/staff/updateMyInfo');
      await t.call({
        url: '/api/staff/updateMyInfo',
        token: otherToken,
        body: { email: 'other@example.com' },
      });
      await awaitRows(other.id, '/api/staff/updateMyInfo');

      const data = await overview(token);
      expect(data.lastLogin?.ipAddr).toBe(firstIp);
      expect(Number.isNaN(Date.parse(data.lastLogin!.loginTime))).toBe(false);
      expect(data.loginCount30d).toBe(2);
      expect(data.recentOperations).toHaveLength(1);
      expect(data.recentOperations[0]).toMatchObject({
        methodDesc: 'Change own telephone and email',
        url: '/api/staff/updateMyInfo',
      });
    });

    it('lists the newest operations first', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      await t.call({ url: '/api/staff/updateMyInfo', token, body: { email: 'one@example.com' } });
      await awaitRows(user.id, '/api/staff/updateMyInfo');
      await new Promise((resolve) => setTimeout(resolve, 20));
      await t.call({
        url: '/api/staff/changePwd',
        token,
        body: { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      });
      await awaitRows(user.id, '/api/staff/changePwd');
      const urls = (await overview(token)).recentOperations.map((op) => op.url);
      expect(urls).toEqual(['/api/staff/changePwd', '/api/staff/updateMyInfo']);
    });
  });
});
