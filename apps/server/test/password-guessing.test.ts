import { api, ResultCode } from '@uiot/contracts';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle } from '../src/modules/auth/auth.schema.ts';
import { ACCOUNT_ADDRESS_POLICY, ACCOUNT_POLICY } from '../src/modules/auth/login-throttle.ts';
import { ADMIN_PASSWORD, type CallResult, freshAddress, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';

const NEW_PASSWORD = 'Brand-New-Pass-9';

// Finding 9 of the security review: 8 wrong passwords from anywhere locked any account, `admin` included, for
// 15 minutes. Failures now count per account and address, per address, and per account over every address
// with a delay that never locks (docs/security.md, *Sign-in throttling*).
describe.each(databases)('finding 9: guesses do not lock the owner out ($kind)', (kind) => {
  let t: TestApp;
  /** The clock of the throttling: tests move it on instead of waiting. */
  let now = new Date('2030-01-01T08:00:00Z').getTime();

  beforeAll(async () => {
    t = await openTestApp(kind, { services: { now: () => new Date(now) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (name: string, pwd: string, ip: string) =>
    t.call(api.auth.loginCheck, { body: { name, pwd }, remoteAddress: ip });
  const changePwd = (token: string, oldPwd: string, ip: string) =>
    t.call(api.auth.changePwd, {
      token,
      body: { oldPwd, newPwd: NEW_PASSWORD, confirmPwd: NEW_PASSWORD },
      remoteAddress: ip,
    });
  const retryAfterOf = (response: CallResult<unknown>) => Number(response.headers['retry-after']);
  const codes = (responses: CallResult<unknown>[]) => responses.map((r) => r.body.code);
  const count = (list: number[], code: number) => list.filter((c) => c === code).length;

  /**
   * Makes `failures` wrong guesses counted, each as soon as the throttling lets it through (the clock jumps
   * over every wait and lock), and returns how many attempts were refused on the way.
   */
  async function guessUntilCounted(
    attempt: (guess: string) => Promise<CallResult<unknown>>,
    failures: number,
    codes: { wrong: number; refused: number },
  ): Promise<number> {
    let counted = 0;
    let refused = 0;
    while (counted < failures) {
      const response = await attempt(`Wrong-Guess-${counted}`);
      if (response.body.code === codes.refused) {
        expect(response.status).toBe(429);
        refused += 1;
        now += retryAfterOf(response) * 1000;
      } else {
        expect(response.body.code).toBe(codes.wrong);
        counted += 1;
      }
    }
    return refused;
  }

  const accountRow = async (key: string) =>
    (await t.db.select().from(loginThrottle).where(eq(loginThrottle.key, key)))[0];

  describe('sign-in', () => {
    const SIGN_IN = { wrong: ResultCode.LoginFailed, refused: ResultCode.LoginLocked };

    it('after 20 failures from address A, the owner signs in from address B at once; A stays throttled', async () => {
      const owner = await t.createStaff();
      const [a, b] = [freshAddress(), freshAddress()];
      const refused = await guessUntilCounted((pwd) => login(owner.name, pwd, a), 20, SIGN_IN);
      // A was held back on the way: locked after 8 failures (twice), waiting between the others.
      expect(refused).toBeGreaterThanOrEqual(2);

      const signedIn = await login(owner.name, owner.password, b);
      expect(signedIn.body, JSON.stringify(signedIn.body)).toMatchObject({ success: true });

      // The attacker, right password or not, still waits at A.
      for (const pwd of ['Wrong-Again-1', owner.password]) {
        const again = await login(owner.name, pwd, a);
        expect(again.status).toBe(429);
        expect(again.body.code).toBe(ResultCode.LoginLocked);
      }
      // The account itself is never locked.
      expect((await accountRow(`account:${owner.name.toLowerCase()}`))?.lockedUntil).toBeNull();
    });

    it('the built-in admin is not locked by wrong passwords from elsewhere', async () => {
      const attacker = freshAddress();
      await guessUntilCounted(
        (pwd) => login('admin', pwd, attacker),
        ACCOUNT_ADDRESS_POLICY.lockAfter,
        SIGN_IN,
      );
      expect((await login('admin', 'Wrong-Again-1', attacker)).body.code).toBe(ResultCode.LoginLocked);
      expect((await login('admin', ADMIN_PASSWORD, freshAddress())).body.success).toBe(true);
    });

    it('counts parallel guesses one by one, from one address and from many', async () => {
      const owner = await t.createStaff();
      const a = freshAddress();
      const fromOne = codes(
        await Promise.all(Array.from({ length: 10 }, (_, i) => login(owner.name, `Wrong-One-${i}`, a))),
      );
      expect(count(fromOne, ResultCode.LoginFailed)).toBe(ACCOUNT_ADDRESS_POLICY.freeFailures);
      expect(count(fromOne, ResultCode.LoginLocked)).toBe(10 - ACCOUNT_ADDRESS_POLICY.freeFailures);

      // Spread over 20 addresses, the guesses meet the bound of the account: the first ones are counted,
      // the others wait.
      const other = await t.createStaff();
      const fromMany = codes(
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => login(other.name, `Wrong-Many-${i}`, freshAddress())),
        ),
      );
      expect(count(fromMany, ResultCode.LoginFailed)).toBe(ACCOUNT_POLICY.freeFailures);
      expect(count(fromMany, ResultCode.LoginLocked)).toBe(20 - ACCOUNT_POLICY.freeFailures);
    });

    it('under guesses from many addresses the owner waits a short delay, never a lock', async () => {
      const owner = await t.createStaff();
      await guessUntilCounted(
        (pwd) => login(owner.name, pwd, freshAddress()),
        ACCOUNT_POLICY.freeFailures + 30,
        SIGN_IN,
      );
      const held = await login(owner.name, owner.password, freshAddress());
      expect(held.status).toBe(429);
      expect(retryAfterOf(held)).toBeGreaterThan(0);
      expect(retryAfterOf(held)).toBeLessThanOrEqual(ACCOUNT_POLICY.maxDelayMs / 1000);
      expect((await accountRow(`account:${owner.name.toLowerCase()}`))?.lockedUntil).toBeNull();
      now += retryAfterOf(held) * 1000;
      expect((await login(owner.name, owner.password, freshAddress())).body.success).toBe(true);
    });
  });

  describe('password change (code 1016)', () => {
    const CHANGE = { wrong: ResultCode.OldPasswordWrong, refused: ResultCode.OldPasswordLocked };

    it('after 20 wrong old passwords from address A, the owner changes the password from B at once', async () => {
      const owner = await t.createStaff();
      const [a, b] = [freshAddress(), freshAddress()];
      const stolen = (await login(owner.name, owner.password, a)).body.data.token;
      const own = (await login(owner.name, owner.password, b)).body.data.token;
      await guessUntilCounted((old) => changePwd(stolen, old, a), 20, CHANGE);

      for (const old of ['Wrong-Again-1', owner.password]) {
        const again = await changePwd(stolen, old, a);
        expect(again.status).toBe(429);
        expect(again.body.code).toBe(ResultCode.OldPasswordLocked);
      }
      const changed = await changePwd(own, owner.password, b);
      expect(changed.body, JSON.stringify(changed.body)).toMatchObject({ success: true });
      // The change ends the other sessions, the stolen one included.
      expect((await t.call(api.auth.getUserInfo, { token: stolen })).status).toBe(401);
      expect((await accountRow(`password-change:${owner.id}`))?.lockedUntil).toBeNull();
    });

    it('counts parallel wrong old passwords one by one', async () => {
      const owner = await t.createStaff();
      const a = freshAddress();
      const token = (await login(owner.name, owner.password, a)).body.data.token;
      const answers = codes(
        await Promise.all(Array.from({ length: 10 }, (_, i) => changePwd(token, `Wrong-Old-${i}`, a))),
      );
      expect(count(answers, ResultCode.OldPasswordWrong)).toBe(ACCOUNT_ADDRESS_POLICY.freeFailures);
      expect(count(answers, ResultCode.OldPasswordLocked)).toBe(10 - ACCOUNT_ADDRESS_POLICY.freeFailures);
    });

    it('keeps its counters apart from sign-in', async () => {
      const owner = await t.createStaff();
      const a = freshAddress();
      const token = (await login(owner.name, owner.password, a)).body.data.token;
      await guessUntilCounted((old) => changePwd(token, old, a), ACCOUNT_ADDRESS_POLICY.lockAfter, CHANGE);
      const rows = await t.db
        .select()
        .from(loginThrottle)
        .where(like(loginThrottle.key, `%${owner.name.toLowerCase()}%`));
      expect(rows.every((row) => row.failures === 0)).toBe(true);
      expect((await login(owner.name, owner.password, freshAddress())).body.success).toBe(true);
    });
  });
});
