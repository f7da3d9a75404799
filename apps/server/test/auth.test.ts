import { ADMIN_STAFF_ID, api, type Endpoint, ResultCode } from '@uiot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/lib/password-hash.ts';
import { loginLog } from '../src/modules/admin/logs.schema.ts';
import { loginThrottle, session } from '../src/modules/auth/auth.schema.ts';
import { ACCOUNT_ADDRESS_POLICY, ADDRESS_POLICY } from '../src/modules/auth/login-throttle.ts';
import { SessionService } from '../src/modules/auth/session.service.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import {
  ADMIN_NAME,
  ADMIN_PASSWORD,
  type CallResult,
  createTestApp,
  freshAddress,
  openTestApp,
  type TestApp,
  uniqueName,
  urlOf,
} from './support/app.ts';
import { databases } from './support/databases.ts';

const LOGIN_FAILED = {
  'zh-CN': '用户名或密码错误',
  en: 'Incorrect username or password',
  'zh-TW': '用戶名稱或密碼錯誤',
} as const;

const NEW_PASSWORD = 'Brand-New-Pass-9';

describe.each(databases)('authentication ($kind)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(kind, { sessionIdleSeconds: 3600, sessionMaxSeconds: 8 * 3600 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (name: string, pwd: string, options: { ip?: string; lang?: string } = {}) =>
    t.call(api.auth.loginCheck, {
      body: { name, pwd },
      remoteAddress: options.ip ?? freshAddress(),
      ...(options.lang ? { lang: options.lang } : {}),
    });

  const userInfo = (token: string) => t.call(api.auth.getUserInfo, { token });

  function expectFailure(response: CallResult<unknown>, status: number, code: number) {
    expect({ status: response.status, success: response.body.success, code: response.body.code }).toEqual({
      status,
      success: false,
      code,
    });
    expect(response.body.message).not.toBe('');
  }

  describe('sign-in', () => {
    it('returns the user, an opaque token and the idle timeout; the token works', async () => {
      const user = await t.createStaff();
      const ip = freshAddress();
      const response = await login(user.name, user.password, { ip });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });
      expect(Object.keys(response.body.data).sort()).toEqual(['timeout', 'token', 'userId', 'userName']);
      const { token, userId, userName, timeout } = response.body.data;
      expect({ userId, userName, timeout }).toEqual({ userId: user.id, userName: user.name, timeout: 3600 });
      expect(token.length).toBeGreaterThanOrEqual(40);

      const info = await userInfo(token);
      expect(info.status).toBe(200);
      expect(info.body.data).toMatchObject({ id: user.id, name: user.name, isBuiltInAdmin: false });

      // Only the token's hash is stored; the sign-in is in the login log with the address.
      const sessions = await t.db.select().from(session).where(eq(session.staffId, user.id));
      expect(sessions.map((s) => s.tokenHash)).toEqual([hashToken(token)]);
      const logins = await t.db.select().from(loginLog).where(eq(loginLog.userId, user.id));
      expect(logins).toHaveLength(1);
      expect(logins[0]).toMatchObject({ userName: user.name, ipAddr: ip, logoutTime: null });
    });

    it.each([
      [undefined, 'zh-CN'],
      ['en', 'en'],
      ['en-US,en;q=0.9', 'en'],
      ['zh-TW', 'zh-TW'],
    ] as const)('refuses a wrong password with code 1001 (Accept-Language %s)', async (header, lang) => {
      const user = await t.createStaff();
      const response = await login(user.name, 'Wrong-Pass-1', header ? { lang: header } : {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: false,
        code: ResultCode.LoginFailed,
        message: LOGIN_FAILED[lang],
        data: null,
      });
    });

    it('gives an unknown account exactly the answer of a wrong password', async () => {
      const user = await t.createStaff();
      const wrong = await login(user.name, 'Wrong-Pass-1', { lang: 'en' });
      const unknown = await login(uniqueName('nobody'), 'Wrong-Pass-1', { lang: 'en' });
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
      const headerNames = (r: CallResult<unknown>) =>
        Object.keys(r.headers)
          .filter((h) => h !== 'date')
          .sort();
      expect(headerNames(unknown)).toEqual(headerNames(wrong));
      expect(unknown.headers['content-length']).toBe(wrong.headers['content-length']);
    });

    it('trims the name and ignores its case', async () => {
      const user = await t.createStaff({ name: uniqueName('Mixed_Case') });
      const response = await login(`  ${user.name.toUpperCase()}  `, user.password);
      expect(response.body.success).toBe(true);
      expect(response.body.data).toMatchObject({ userId: user.id, userName: user.name });
      expect((await login(user.name.toLowerCase(), user.password)).body.success).toBe(true);
    });

    it('does not trim or fold the password', async () => {
      const user = await t.createStaff();
      expect((await login(user.name, ` ${user.password}`)).body.code).toBe(ResultCode.LoginFailed);
      expect((await login(user.name, user.password.toUpperCase())).body.code).toBe(ResultCode.LoginFailed);
    });

    it('refuses a disabled account with code 1003 and opens no session', async () => {
      const user = await t.createStaff({ status: 'disabled' });
      const response = await login(user.name, user.password, { lang: 'en' });
      expectFailure(response, 200, ResultCode.AccountDisabled);
      expect(response.body.message).toBe('This account is disabled, please contact the administrator');
      // A wrong password does not tell that the account exists but is disabled.
      expect((await login(user.name, 'Wrong-Pass-1')).body.code).toBe(ResultCode.LoginFailed);
      expect(await t.db.select().from(session).where(eq(session.staffId, user.id))).toEqual([]);
    });

    it('ends the sessions of an account once it is disabled', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      expect((await userInfo(token)).status).toBe(200);
      await t.db.update(staff).set({ status: 'disabled' }).where(eq(staff.id, user.id));
      expectFailure(await userInfo(token), 401, ResultCode.Unauthenticated);
    });
  });

  describe('sign-in throttling', () => {
    async function failTimes(name: string, times: number, ip: () => string) {
      for (let i = 0; i < times; i++) {
        const response = await login(name, `Wrong-Pass-${i}`, { ip: ip() });
        expect(response.body.code, `failure ${i + 1} of ${name}`).toBe(ResultCode.LoginFailed);
      }
    }

    function expectLocked(response: CallResult<unknown>) {
      expectFailure(response, 429, ResultCode.LoginLocked);
      const retryAfter = Number(response.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_ADDRESS_POLICY.lockMs / 1000);
      expect(response.body.message).toContain(String(retryAfter));
    }

    it('refuses an immediate attempt after 3 failures from that address, even with the right password', async () => {
      expect(ACCOUNT_ADDRESS_POLICY.freeFailures).toBe(3);
      const user = await t.createStaff();
      const ip = freshAddress();
      await failTimes(user.name, ACCOUNT_ADDRESS_POLICY.freeFailures, () => ip);
      const refused = await login(user.name, user.password, { ip, lang: 'en' });
      expectLocked(refused);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(
        ACCOUNT_ADDRESS_POLICY.baseDelayMs / 1000,
      );
      expect(refused.body.message).toMatch(/^Too many failed sign-in attempts, please try again in \d+ s$/);
      // The name is the key, whatever its spelling.
      expectLocked(await login(` ${user.name.toUpperCase()}`, user.password, { ip }));
      expect(await t.db.select().from(session).where(eq(session.staffId, user.id))).toEqual([]);
      // The owner, from an address without failures, is not held back.
      expect((await login(user.name, user.password)).body.success).toBe(true);
    });

    it('counts a burst of parallel guesses one by one: only the free failures get through', async () => {
      const user = await t.createStaff();
      const ip = freshAddress();
      const guesses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login(user.name, `Wrong-Burst-${i}`, { ip })),
      );
      const codes = guesses.map((response) => response.body.code);
      expect(codes.filter((code) => code === ResultCode.LoginFailed)).toHaveLength(
        ACCOUNT_ADDRESS_POLICY.freeFailures,
      );
      expect(codes.filter((code) => code === ResultCode.LoginLocked)).toHaveLength(
        10 - ACCOUNT_ADDRESS_POLICY.freeFailures,
      );
    });

    it('throttles an unknown account name the same way', async () => {
      const name = uniqueName('ghost');
      const ip = freshAddress();
      await failTimes(name, ACCOUNT_ADDRESS_POLICY.freeFailures, () => ip);
      expectLocked(await login(name, 'Any-Pass-1', { ip }));
    });

    it('throttles an address that fails on many account names', async () => {
      const ip = freshAddress();
      for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) {
        // One failure per name: no account counter comes near its limit.
        expect((await login(uniqueName('spray'), 'Wrong-Pass-1', { ip })).body.code).toBe(
          ResultCode.LoginFailed,
        );
      }
      const user = await t.createStaff();
      expectLocked(await login(user.name, user.password, { ip }));
      // The account itself is not throttled: from another address it signs in.
      expect((await login(user.name, user.password)).body.success).toBe(true);
    });

    it('clears the counter of the account from that address on a successful sign-in, and only that', async () => {
      const user = await t.createStaff();
      const ip = freshAddress();
      const name = user.name.toLowerCase();
      const rowOf = (key: string) => t.db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
      await failTimes(user.name, ACCOUNT_ADDRESS_POLICY.freeFailures - 1, () => ip);
      expect(await rowOf(`account-address:${ip}/${name}`)).toHaveLength(1);
      expect((await login(user.name, user.password, { ip })).body.success).toBe(true);
      expect(await rowOf(`account-address:${ip}/${name}`)).toEqual([]);
      // The bound over every address forgets by itself: a right password proves nothing of the others.
      expect((await rowOf(`account:${name}`))[0]?.failures).toBe(ACCOUNT_ADDRESS_POLICY.freeFailures - 1);
      // Without the reset these would make freeFailures + 1 failures in a row, and the next try would wait.
      await failTimes(user.name, ACCOUNT_ADDRESS_POLICY.freeFailures - 1, () => ip);
      expect((await login(user.name, user.password, { ip })).body.success).toBe(true);
    });
  });

  describe('sessions', () => {
    it('revokes the token on logout and records the sign-out time', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const other = await t.signIn(user.name, user.password);
      const logout = await t.call(api.auth.logout, { token });
      expect(logout.status).toBe(200);
      expect(logout.body).toMatchObject({ success: true, code: ResultCode.Ok, data: null });

      const after = await t.call(api.auth.getUserInfo, { token, lang: 'en' });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({
        success: false,
        code: ResultCode.Unauthenticated,
        data: null,
        message: 'Identity expired, please log in again',
      });
      expectFailure(await t.call(api.auth.logout, { token }), 401, ResultCode.Unauthenticated);
      // Only that session ends.
      expect((await userInfo(other)).status).toBe(200);

      const [closed] = await t.db
        .select()
        .from(loginLog)
        .where(eq(loginLog.sessionHash, hashToken(token)));
      expect(closed?.logoutTime).toBeInstanceOf(Date);
      const [open] = await t.db
        .select()
        .from(loginLog)
        .where(eq(loginLog.sessionHash, hashToken(other)));
      expect(open?.logoutTime).toBeNull();
    });

    it('refuses a missing, malformed or unknown token', async () => {
      const signedIn = async (authorization?: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: urlOf(api.auth.getUserInfo),
            headers: authorization ? { authorization } : {},
          })
        ).statusCode;
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      expect(await signedIn(`Bearer ${token}`)).toBe(200);
      expect(await signedIn(`bearer ${token}`)).toBe(200);
      expect(await signedIn()).toBe(401);
      expect(await signedIn(token)).toBe(401);
      expect(await signedIn(`Basic ${token}`)).toBe(401);
      expect(await signedIn(`Bearer ${token}x`)).toBe(401);
      expect(await signedIn(`Bearer ${hashToken(token)}`)).toBe(401);
      expect(await signedIn(`Bearer ${'a'.repeat(300)}`)).toBe(401);
    });

    it('expires a session when idle and at its absolute limit (controlled clock)', async () => {
      let now = new Date('2030-01-01T00:00:00Z').getTime();
      const clock = () => new Date(now);
      const sessions = new SessionService(t.db, { idleSeconds: 60, maxSeconds: 300 }, clock);
      const user = await t.createStaff();

      // Idle: a session unused for the idle time is gone; one used in between lives on.
      const start = now;
      const used = await sessions.create(user.id, '10.0.0.1');
      const quiet = await sessions.create(user.id, '10.0.0.1');
      now = start + 59_000;
      expect((await sessions.resolve(used.token))?.staffId).toBe(user.id);
      now = start + 60_000;
      expect(await sessions.resolve(quiet.token)).toBeNull();
      expect((await sessions.resolve(used.token))?.staffId).toBe(user.id);
      now = start + 118_000;
      expect((await sessions.resolve(used.token))?.staffId).toBe(user.id);
      now = start + 300_000;
      expect(await sessions.resolve(used.token)).toBeNull();

      // Absolute: used every 50 s it never idles out, yet ends maxSeconds after creation.
      const created = now;
      const busy = await sessions.create(user.id, '10.0.0.1');
      for (let at = 50_000; at < 300_000; at += 50_000) {
        now = created + at;
        expect(await sessions.resolve(busy.token), `at +${at / 1000} s`).not.toBeNull();
      }
      now = created + 299_000;
      expect(await sessions.resolve(busy.token)).not.toBeNull();
      now = created + 300_000;
      expect(await sessions.resolve(busy.token)).toBeNull();
      now = created + 300_001;
      expect(await sessions.resolve(busy.token)).toBeNull();
    });

    it('answers 401 to a token that has been idle longer than the configured idle time', async () => {
      const short = await createTestApp(t.database, { sessionIdleSeconds: 1, sessionMaxSeconds: 3600 });
      try {
        const user = await t.createStaff();
        const token = await short.signIn(user.name, user.password);
        const call = () => short.call(api.auth.getUserInfo, { token });
        expect((await call()).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1_300));
        const expired = await call();
        expect(expired.status).toBe(401);
        expect(expired.body.code).toBe(ResultCode.Unauthenticated);
        // The expiry is stored with the session: the app with the long idle time refuses it too.
        expect((await userInfo(token)).status).toBe(401);
      } finally {
        await short.closeApp();
      }
    });
  });

  describe('password change', () => {
    const changePwd = (token: string, body: unknown, lang?: string) =>
      t.call(api.auth.changePwd, { token, payload: body, ...(lang ? { lang } : {}) });

    it('refuses a wrong old password with code 1010', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const response = await changePwd(
        token,
        { oldPwd: 'Not-The-Old-1', newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
        'en',
      );
      expectFailure(response, 200, ResultCode.OldPasswordWrong);
      expect(response.body.message).toBe('The old password is incorrect');
      expect((await login(user.name, user.password)).body.success).toBe(true);
    });

    it('finding 2: throttles wrong old passwords as sign-in does, the right one included', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const form = (old: string) => ({ oldPwd: old, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD });
      for (let i = 0; i < ACCOUNT_ADDRESS_POLICY.freeFailures; i++) {
        expectFailure(await changePwd(token, form(`Wrong-Old-${i}`)), 200, ResultCode.OldPasswordWrong);
      }
      for (const old of ['Wrong-Old-again', user.password]) {
        const refused = await changePwd(token, form(old), 'en');
        expectFailure(refused, 429, ResultCode.OldPasswordLocked);
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_ADDRESS_POLICY.baseDelayMs / 1000);
        expect(refused.body.message).toBe(
          `Too many wrong old passwords, please try again in ${retryAfter} s`,
        );
      }
      // Sign-in is counted apart: the account still signs in.
      expect((await login(user.name, user.password)).body.success).toBe(true);
      // Once the wait has passed, the right old password goes through and the count starts again.
      const key = eq(loginThrottle.key, `password-change-address:127.0.0.1/${user.id}`);
      await t.db
        .update(loginThrottle)
        .set({
          lastFailureAt: new Date(Date.now() - ACCOUNT_ADDRESS_POLICY.windowMs - 1_000),
          lockedUntil: null,
        })
        .where(key);
      expect((await changePwd(token, form(user.password))).body.success).toBe(true);
      expect(await t.db.select().from(loginThrottle).where(key)).toEqual([]);
    });

    it.each([
      [
        'a new password equal to the old one',
        (old: string) => ({ oldPwd: old, newPwd: old, confirmPwd: old }),
        'newPwd',
        {
          'zh-CN': '新密码不能与原密码相同',
          en: 'The new password must differ from the old one',
          'zh-TW': '新密碼不能與原密碼相同',
        },
      ],
      [
        'a weak new password',
        (old: string) => ({ oldPwd: old, newPwd: 'weakpass17', confirmPwd: 'weakpass17' }),
        'newPwd',
        {
          'zh-CN': '须包含大写字母、小写字母、数字、符号中的至少三类',
          en: 'Use at least three of: upper case, lower case, digits, symbols',
          'zh-TW': '須包含大寫字母、小寫字母、數字、符號中的至少三類',
        },
      ],
      [
        'a new password with a run like abc (StrongPassword, as for a new staff member)',
        (old: string) => ({ oldPwd: old, newPwd: 'Abcdefg1', confirmPwd: 'Abcdefg1' }),
        'newPwd',
        {
          'zh-CN': '密码不能包含连续字符（如 123、abc、ABC）',
          en: 'The password must not contain runs like 123, abc or ABC',
          'zh-TW': '密碼不能包含連續字元（如 123、abc、ABC）',
        },
      ],
      [
        'a common new password',
        (old: string) => ({ oldPwd: old, newPwd: 'Password1', confirmPwd: 'Password1' }),
        'newPwd',
        {
          'zh-CN': '密码过于常见，请换一个',
          en: 'This password is too common, choose another',
          'zh-TW': '密碼過於常見，請換一個',
        },
      ],
      [
        'a confirmation that does not match',
        (old: string) => ({ oldPwd: old, newPwd: NEW_PASSWORD, confirmPwd: `${NEW_PASSWORD}x` }),
        'confirmPwd',
        {
          'zh-CN': '两次输入的密码不一致',
          en: 'The two passwords do not match',
          'zh-TW': '兩次輸入的密碼不一致',
        },
      ],
    ] as const)(
      'refuses %s with HTTP 400, the field and a translated message',
      async (_label, form, path, texts) => {
        const user = await t.createStaff();
        const token = await t.signIn(user.name, user.password);
        for (const lang of ['zh-CN', 'en', 'zh-TW'] as const) {
          const response = await changePwd(token, form(user.password), lang);
          expectFailure(response, 400, ResultCode.InvalidInput);
          expect(response.body.data).toEqual([{ path, message: texts[lang] }]);
        }
        expect((await login(user.name, user.password)).body.success).toBe(true);
      },
    );

    it('refuses a new password holding the user name while StrongPassword is on, and checks it first', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const withName = `Zq#${user.name}#9`;
      // Refused for the rule even with a wrong old password: a refused new password costs no guess.
      const response = await changePwd(token, {
        oldPwd: 'Wrong-Old-1',
        newPwd: withName,
        confirmPwd: withName,
      });
      expectFailure(response, 400, ResultCode.InvalidInput);
      expect(response.body.data).toContainEqual({ path: 'newPwd', message: '密码不能包含用户名' });
    });

    it('applies the change-password rule while StrongPassword is off', async () => {
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      await t.setParam('StrongPassword', 'false');
      t.services.params.flagsChanged();
      try {
        const weak = await changePwd(
          token,
          { oldPwd: user.password, newPwd: 'weakpass17', confirmPwd: 'weakpass17' },
          'en',
        );
        expectFailure(weak, 400, ResultCode.InvalidInput);
        expect(weak.body.data).toEqual([
          { path: 'newPwd', message: 'At least 8 characters with upper case, lower case and digits' },
        ]);
        const changed = await changePwd(token, {
          oldPwd: user.password,
          newPwd: 'Abcdefg1',
          confirmPwd: 'Abcdefg1',
        });
        expect(changed.body.success).toBe(true);
      } finally {
        await t.setParam('StrongPassword', 'true');
        t.services.params.flagsChanged();
      }
    });

    it('changes the password, ends the other sessions and keeps the current one', async () => {
      const user = await t.createStaff();
      const current = await t.signIn(user.name, user.password);
      const other = await t.signIn(user.name, user.password);
      const bystander = await t.createStaff();
      const bystanderToken = await t.signIn(bystander.name, bystander.password);

      const response = await changePwd(current, {
        oldPwd: user.password,
        newPwd: NEW_PASSWORD,
        confirmPwd: NEW_PASSWORD,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });

      expect((await userInfo(other)).status).toBe(401);
      expect((await userInfo(current)).status).toBe(200);
      expect((await userInfo(bystanderToken)).status).toBe(200);
      expect((await login(user.name, NEW_PASSWORD)).body.success).toBe(true);
      expect((await login(user.name, user.password)).body.code).toBe(ResultCode.LoginFailed);

      const [row] = await t.db.select().from(staff).where(eq(staff.id, user.id));
      expect(row?.mustChangePassword).toBe(false);
      expect(row?.passwordHash).not.toContain(NEW_PASSWORD);
      expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
    });

    it('does not let the built-in admin change its password here (code 1014)', async () => {
      const token = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
      const response = await changePwd(
        token,
        { oldPwd: ADMIN_PASSWORD, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
        'en',
      );
      expectFailure(response, 200, ResultCode.PasswordChangeForbidden);
      expect(response.body.message).toBe('The password of the built-in administrator cannot be changed here');
      expect((await login(ADMIN_NAME, ADMIN_PASSWORD)).body.success).toBe(true);
      expect((await login(ADMIN_NAME, NEW_PASSWORD)).body.success).toBe(false);
    });
  });

  describe('first sign-in', () => {
    const isFirstLogin = (token: string, staffId?: string) =>
      t.call(api.auth.isFirstLogin, { token, ...(staffId ? { query: { staffId } } : {}) });

    it('is true for a new user and false once the password is changed', async () => {
      const user = await t.createStaff({ mustChangePassword: true });
      const token = await t.signIn(user.name, user.password);
      const reader = await t.createStaff({ permissions: ['staff.read'] });
      const readerToken = await t.signIn(reader.name, reader.password);
      // The user itself is held at the change (isFirstLogin included): getUserInfo tells it.
      expect((await userInfo(token)).body.data.isFirstLogin).toBe(true);
      expect((await isFirstLogin(readerToken, user.id)).body.data).toBe(true);
      await t.call(api.auth.changePwd, {
        token,
        body: { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      });
      expect((await isFirstLogin(token)).body.data).toBe(false);
      expect((await isFirstLogin(readerToken, user.id)).body.data).toBe(false);
      expect((await userInfo(token)).body.data.isFirstLogin).toBe(false);
    });

    it('is false for a user who has set a password', async () => {
      const user = await t.createStaff({ mustChangePassword: false });
      const token = await t.signIn(user.name, user.password);
      expect((await isFirstLogin(token)).body.data).toBe(false);
    });

    it('is always false for the built-in admin', async () => {
      await t.db.update(staff).set({ mustChangePassword: true }).where(eq(staff.id, ADMIN_STAFF_ID));
      try {
        const token = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
        expect((await isFirstLogin(token)).body.data).toBe(false);
        const info = (await userInfo(token)).body.data;
        expect(info).toMatchObject({ isFirstLogin: false, mustChangePassword: false, isBuiltInAdmin: true });
      } finally {
        await t.db.update(staff).set({ mustChangePassword: false }).where(eq(staff.id, ADMIN_STAFF_ID));
      }
    });

    it("tells another user's state only with staff.read", async () => {
      const target = await t.createStaff({ mustChangePassword: true });
      const plain = await t.createStaff();
      const reader = await t.createStaff({ permissions: ['staff.read'] });
      const plainToken = await t.signIn(plain.name, plain.password);
      const readerToken = await t.signIn(reader.name, reader.password);
      expectFailure(await isFirstLogin(plainToken, target.id), 403, ResultCode.Forbidden);
      const allowed = await isFirstLogin(readerToken, target.id);
      expect(allowed.status).toBe(200);
      expect(allowed.body.data).toBe(true);
    });

    it('makes getUserInfo.mustChangePassword follow the ChangePwdByFirstLogin parameter', async () => {
      const user = await t.createStaff({ mustChangePassword: true });
      const token = await t.signIn(user.name, user.password);
      try {
        await t.setParam('ChangePwdByFirstLogin', 'true');
        expect((await userInfo(token)).body.data).toMatchObject({
          isFirstLogin: true,
          mustChangePassword: true,
        });
        await t.setParam('ChangePwdByFirstLogin', 'false');
        expect((await userInfo(token)).body.data).toMatchObject({
          isFirstLogin: true,
          mustChangePassword: false,
        });
        await t.setParam('ChangePwdByFirstLogin', 'true');
        await t.db.update(staff).set({ mustChangePassword: false }).where(eq(staff.id, user.id));
        expect((await userInfo(token)).body.data).toMatchObject({
          isFirstLogin: false,
          mustChangePassword: false,
        });
      } finally {
        await t.setParam('ChangePwdByFirstLogin', 'true');
      }
    });
  });

  describe('forced password change on the server', () => {
    const PASSWORD_CHANGE_REQUIRED = {
      'zh-CN': '请先修改密码再使用控制台',
      en: 'Change your password before using the console',
      'zh-TW': '請先修改密碼再使用控制台',
    } as const;
    const get = (endpoint: Endpoint, token: string, lang?: string) =>
      t.call(endpoint, { token, ...(lang ? { lang } : {}) });
    /** A user still holding the initial password, who may read staff (so a permission endpoint is tried). */
    const heldUser = () => t.createStaff({ mustChangePassword: true, permissions: ['staff.read'] });

    it('refuses every other endpoint with HTTP 403 and code 1015 until the password is changed', async () => {
      await t.setParam('ChangePwdByFirstLogin', 'true');
      const user = await heldUser();
      const token = await t.signIn(user.name, user.password);

      for (const lang of ['zh-CN', 'en', 'zh-TW'] as const) {
        const refused = await get(api.home.getHomeOverview, token, lang);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({
          success: false,
          code: ResultCode.PasswordChangeRequired,
          message: PASSWORD_CHANGE_REQUIRED[lang],
          data: null,
        });
      }
      expectFailure(await get(api.staff.queryPage, token), 403, ResultCode.PasswordChangeRequired);
      expectFailure(
        await t.call(api.auth.updateMyInfo, { token, body: { email: 'held@example.com' } }),
        403,
        ResultCode.PasswordChangeRequired,
      );
      const [unchanged] = await t.db.select().from(staff).where(eq(staff.id, user.id));
      expect(unchanged?.email).toBeNull();

      // What the forced dialog needs answers.
      const info = await userInfo(token);
      expect(info.status).toBe(200);
      expect(info.body.data).toMatchObject({ id: user.id, isFirstLogin: true, mustChangePassword: true });
      expect(info.body.data.permissions).toEqual(['staff.read']);
      // What it does not need is held back too, the user's own menus included.
      expectFailure(await get(api.auth.isFirstLogin, token), 403, ResultCode.PasswordChangeRequired);
      expectFailure(await get(api.auth.queryMenuRight, token), 403, ResultCode.PasswordChangeRequired);
      expect((await get(api.system.getFeatureFlags, token)).body).toMatchObject({
        success: true,
        data: { ChangePwdByFirstLogin: 'true' },
      });

      const changed = await t.call(api.auth.changePwd, {
        token,
        body: { oldPwd: user.password, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      });
      expect(changed.body).toMatchObject({ success: true, code: ResultCode.Ok });

      // The same session goes on, now past the hold.
      expect((await get(api.home.getHomeOverview, token)).status).toBe(200);
      expect((await get(api.staff.queryPage, token)).body).toMatchObject({ success: true });
      expect((await userInfo(token)).body.data).toMatchObject({
        isFirstLogin: false,
        mustChangePassword: false,
      });
    });

    it('lets the held user sign out', async () => {
      await t.setParam('ChangePwdByFirstLogin', 'true');
      const user = await heldUser();
      const token = await t.signIn(user.name, user.password);
      expect((await get(api.auth.logout, token)).body).toMatchObject({ success: true });
      expect((await userInfo(token)).status).toBe(401);
    });

    it('refuses nothing while ChangePwdByFirstLogin is off, and follows the parameter at once', async () => {
      const user = await heldUser();
      const token = await t.signIn(user.name, user.password);
      try {
        await t.setParam('ChangePwdByFirstLogin', 'false');
        expect((await get(api.home.getHomeOverview, token)).status).toBe(200);
        expect((await get(api.staff.queryPage, token)).body).toMatchObject({ success: true });
        expect((await userInfo(token)).body.data).toMatchObject({ mustChangePassword: false });

        await t.setParam('ChangePwdByFirstLogin', 'true');
        expectFailure(await get(api.home.getHomeOverview, token), 403, ResultCode.PasswordChangeRequired);
      } finally {
        await t.setParam('ChangePwdByFirstLogin', 'true');
      }
    });

    it('never holds the built-in admin, nor a user who has changed the password', async () => {
      await t.setParam('ChangePwdByFirstLogin', 'true');
      await t.db.update(staff).set({ mustChangePassword: true }).where(eq(staff.id, ADMIN_STAFF_ID));
      try {
        const adminToken = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
        expect((await get(api.staff.queryPage, adminToken)).body).toMatchObject({ success: true });
      } finally {
        await t.db.update(staff).set({ mustChangePassword: false }).where(eq(staff.id, ADMIN_STAFF_ID));
      }
      const established = await t.createStaff({ mustChangePassword: false });
      const token = await t.signIn(established.name, established.password);
      expect((await get(api.home.getHomeOverview, token)).status).toBe(200);
    });
  });

  it('keeps login-log rows per sign-in', async () => {
    const user = await t.createStaff();
    await t.signIn(user.name, user.password);
    await t.signIn(user.name, user.password);
    const rows = await t.db
      .select()
      .from(loginLog)
      .where(and(eq(loginLog.userId, user.id), eq(loginLog.userName, user.name)));
    expect(rows).toHaveLength(2);
  });
});
