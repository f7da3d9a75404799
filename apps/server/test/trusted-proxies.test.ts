import { api, ResultCode } from '@uiot/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLog, opLog } from '../src/modules/admin/logs.schema.ts';
import { loginThrottle } from '../src/modules/auth/auth.schema.ts';
import { ACCOUNT_ADDRESS_POLICY } from '../src/modules/auth/login-throttle.ts';
import { eventually, freshAddress, openTestApp, type TestApp, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';

const PROXY = '10.250.0.5';

/**
 * Behind a reverse proxy every user shares the proxy's address: TRUSTED_PROXIES names the proxies whose
 * X-Forwarded-For is believed, and no one else can choose the address the sign-in throttling and the logs see.
 */
describe.each(databases)(
  'rule: the client address behind a reverse proxy (TRUSTED_PROXIES) ($kind)',
  (kind) => {
    let t: TestApp;

    beforeAll(async () => {
      t = await openTestApp(kind, { trustedProxies: [PROXY] });
    });
    afterAll(async () => {
      await t?.close();
    });

    const login = (name: string, pwd: string, from: string, forwardedFor?: string) =>
      t.app.inject({
        method: 'POST',
        url: urlOf(api.auth.loginCheck),
        payload: { name, pwd },
        remoteAddress: from,
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
    const code = (response: { json: () => { code: number } }) => response.json().code;

    /** The addresses the sign-in throttling counted failures of this account under. */
    async function throttledAddresses(name: string): Promise<string[]> {
      const rows = await t.db
        .select({ key: loginThrottle.key })
        .from(loginThrottle)
        .where(like(loginThrottle.key, `account-address:%/${name.toLowerCase()}`));
      return rows.map((r) => r.key.slice('account-address:'.length).split('/')[0]!).sort();
    }

    /** The addresses of the login log and of the operation log's sign-ins (written after the answer). */
    async function loggedAddresses(name: string, operations: number) {
      const signIns = () =>
        t.db
          .select()
          .from(opLog)
          .where(and(eq(opLog.userName, name), eq(opLog.url, urlOf(api.auth.loginCheck))));
      const rows = await eventually(async () => {
        const found = await signIns();
        return found.length >= operations ? found : undefined;
      });
      return {
        login: (await t.db.select().from(loginLog).where(eq(loginLog.userName, name))).map((r) => r.ipAddr),
        operations: rows.map((r) => r.ipAddr).sort(),
      };
    }

    it('a client not in the list cannot put another address into the throttling or the logs', async () => {
      const user = await t.createStaff();
      const client = freshAddress();
      for (let i = 0; i < ACCOUNT_ADDRESS_POLICY.freeFailures; i++) {
        const forged = `192.0.2.${i + 1}`;
        expect(code(await login(user.name, `Wrong-Pass-${i}`, client, forged))).toBe(ResultCode.LoginFailed);
      }
      // A new forged address does not buy a new count: the attempt is refused as the client's own.
      const refused = await login(user.name, user.password, client, '198.51.100.7');
      expect(refused.statusCode).toBe(429);
      expect(await throttledAddresses(user.name)).toEqual([client]);

      const other = await t.createStaff();
      expect(code(await login(other.name, other.password, client, '198.51.100.8'))).toBe(ResultCode.Ok);
      const logged = await loggedAddresses(other.name, 1);
      expect(logged.login).toEqual([client]);
      expect(logged.operations).toEqual([client]);
    });

    it("believes the trusted proxy's X-Forwarded-For: each user behind it has an address of its own", async () => {
      const user = await t.createStaff();
      const [behindA, behindB] = [freshAddress(), freshAddress()];
      for (let i = 0; i < ACCOUNT_ADDRESS_POLICY.freeFailures; i++) {
        expect(code(await login(user.name, `Wrong-Pass-${i}`, PROXY, behindA))).toBe(ResultCode.LoginFailed);
      }
      expect((await login(user.name, user.password, PROXY, behindA)).statusCode).toBe(429);
      // Another user behind the same proxy is not held back by the first one's failures.
      expect(code(await login(user.name, user.password, PROXY, behindB))).toBe(ResultCode.Ok);
      // The failures are counted under the address behind the proxy (the success cleared its own pair).
      expect(await throttledAddresses(user.name)).toEqual([behindA]);
      const logged = await loggedAddresses(user.name, 5);
      expect(logged.login).toEqual([behindB]);
      expect(logged.operations).toEqual([...Array(4).fill(behindA), behindB].sort());
    });

    it('takes the address the proxy saw, not one the client wrote before it', async () => {
      const user = await t.createStaff();
      const client = freshAddress();
      // The proxy appends the address it saw to what the client sent.
      const response = await login(user.name, 'Wrong-Pass-1', PROXY, `203.0.113.9, ${client}`);
      expect(code(response)).toBe(ResultCode.LoginFailed);
      expect(await throttledAddresses(user.name)).toEqual([client]);
    });
  },
);
