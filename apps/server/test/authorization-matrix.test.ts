import {
  ALL_ENDPOINTS,
  ALL_PERMISSIONS,
  accessKeys,
  api,
  type Endpoint,
  isPermissionKey,
  type PermissionKey,
  ResultCode,
} from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardDisplayToken } from './support/alarm-board.ts';
import { ADMIN_NAME, ADMIN_PASSWORD, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { injectEndpoint, type SampleOptions, sampleBody, sampleQuery } from './support/sample-input.ts';

/**
 * The authorisation matrix over every endpoint of the contract (new endpoints join by themselves): who is
 * refused with 401 or 403, and who gets past the guard. Requests are built from the endpoint's own schemas;
 * getting past the guard may still end in 400 or a business failure, never in 401 or 403.
 */
const nonPublic = ALL_ENDPOINTS.filter((e) => e.access !== 'public');
/** The endpoints that need a key, with the keys of which any one opens it. */
const guarded = ALL_ENDPOINTS.flatMap((e) => {
  const keys = accessKeys(e.access);
  return keys ? [{ ...e, keys }] : [];
});
const signedInOnly = ALL_ENDPOINTS.filter((e) => e.access === 'signedIn');
/** What a control-room board's display session may call, and nothing else may. */
const boardOnly = ALL_ENDPOINTS.filter((e) => e.access === 'alarmBoard');
const staffEndpoints = nonPublic.filter((e) => e.access !== 'alarmBoard');
/** What a user held at the forced first-sign-in password change may still call (spec §4 Login). */
const beforePasswordChange = staffEndpoints.filter((e) => e.allowedBeforePasswordChange);
const heldBack = staffEndpoints.filter((e) => !e.allowedBeforePasswordChange);
const named = <E extends Endpoint>(endpoints: E[]) =>
  endpoints.map((e) => [`${e.method} ${e.path}`, e] as const);

interface Answer {
  status: number;
  code: number | undefined;
}

describe.each(databases)('authorisation matrix ($kind)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Calls an endpoint with a request built from its schemas: an upload sends a file of its kind as
   * multipart; exports answer files, so the answer may not be JSON.
   */
  async function call(endpoint: Endpoint, token: string | null, sample: SampleOptions = {}): Promise<Answer> {
    const query = sampleQuery(endpoint, sample);
    const body = endpoint.method === 'POST' ? (sampleBody(endpoint, sample) ?? {}) : undefined;
    const response = await injectEndpoint(t.app, endpoint, token, { query, body });
    let code: number | undefined;
    try {
      code = response.json<{ code?: number }>().code;
    } catch {
      code = undefined;
    }
    return { status: response.statusCode, code };
  }

  const tokens = new Map<string, Promise<string>>();
  /** A signed-in user holding exactly these keys (through one role), one per set of keys. */
  function tokenHolding(keys: readonly PermissionKey[]): Promise<string> {
    const id = [...keys].sort().join(',');
    let token = tokens.get(id);
    if (!token) {
      token = t.createStaff({ permissions: keys }).then((user) => t.signIn(user.name, user.password));
      tokens.set(id, token);
    }
    return token;
  }

  it('covers every kind of endpoint', () => {
    expect(ALL_ENDPOINTS.some((e) => e.upload && e.access !== 'public')).toBe(true);
    expect(guarded.length).toBeGreaterThan(20);
    expect(signedInOnly.length).toBeGreaterThan(5);
    expect(boardOnly.length).toBeGreaterThan(0);
    expect(nonPublic.length).toBe(guarded.length + signedInOnly.length + boardOnly.length);
  });

  describe('rule: a display session of the control-room board reaches its board endpoints and nothing else', () => {
    let display: Promise<string> | undefined;
    /** A display session of a fresh link, made by an administrator. */
    const displayToken = () => {
      display ??= t.signIn(ADMIN_NAME, ADMIN_PASSWORD).then((admin) => boardDisplayToken(t, admin));
      return display;
    };

    it.each(named(staffEndpoints))('%s with a display session: 401', async (_name, endpoint) => {
      const answer = await call(endpoint, await displayToken(), { allProperties: true });
      expect(answer).toEqual({ status: 401, code: ResultCode.Unauthenticated });
    });

    it.each(named(boardOnly))('%s with a display session: past the guard', async (_name, endpoint) => {
      const answer = await call(endpoint, await displayToken());
      expect(answer).toEqual({ status: 200, code: ResultCode.Ok });
    });

    it.each(named(boardOnly))('%s by a user holding every key: 401', async (_name, endpoint) => {
      const answer = await call(endpoint, await tokenHolding(ALL_PERMISSIONS));
      expect(answer.status).toBe(401);
      expect(answer.code).toBe(ResultCode.AlarmBoardRevoked);
    });
  });

  it.each(named(nonPublic))('%s without a token: 401', async (_name, endpoint) => {
    const answer = await call(endpoint, null);
    expect(answer).toEqual({ status: 401, code: ResultCode.Unauthenticated });
  });

  it('declares only keys of the contract', () => {
    for (const endpoint of guarded) expect(endpoint.keys.every(isPermissionKey), endpoint.path).toBe(true);
  });

  it.each(named(guarded))('%s by users lacking its keys: 403', async (_name, endpoint) => {
    const everyOtherKey = ALL_PERMISSIONS.filter((k) => !endpoint.keys.includes(k));
    for (const token of [await tokenHolding([]), await tokenHolding(everyOtherKey)]) {
      const answer = await call(endpoint, token, { allProperties: true });
      expect(answer).toEqual({ status: 403, code: ResultCode.Forbidden });
    }
  });

  it.each(named(guarded))(
    '%s by a user holding exactly one of its keys: past the guard',
    async (_name, endpoint) => {
      expect(t.app.hasRoute({ method: endpoint.method, url: `/api${endpoint.path}` })).toBe(true);
      for (const key of endpoint.keys) {
        // Every declared field is sent, so a save-or-update names an id and stays an update.
        const answer = await call(endpoint, await tokenHolding([key]), { allProperties: true });
        expect([401, 403], key).not.toContain(answer.status);
        expect([ResultCode.Unauthenticated, ResultCode.Forbidden], key).not.toContain(answer.code);
      }
    },
  );

  describe('rule: a user held at the forced first-sign-in password change reaches only changePwd, logout, getUserInfo and the feature flags', () => {
    let heldToken: Promise<string> | undefined;
    /** A user holding every key who still has the initial password (ChangePwdByFirstLogin on). */
    const heldUser = () => t.createStaff({ permissions: ALL_PERMISSIONS, mustChangePassword: true });

    beforeAll(async () => {
      await t.setParam('ChangePwdByFirstLogin', 'true');
    });

    it('exempts exactly the signed-in calls the forced dialog needs', () => {
      // The console signs in with getUserInfo and the feature flags (which tell it to show the dialog),
      // then changes the password or signs out.
      expect(beforePasswordChange.map((e) => e.path).sort()).toEqual(
        [api.system.getFeatureFlags, api.auth.changePwd, api.auth.getUserInfo, api.auth.logout].map(
          (e) => e.path,
        ),
      );
      // None of them needs a permission: every user can finish (or leave) the change.
      expect(beforePasswordChange.every((e) => e.access === 'signedIn')).toBe(true);
    });

    it.each(named(heldBack))('%s: 403 PasswordChangeRequired', async (_name, endpoint) => {
      heldToken ??= heldUser().then((user) => t.signIn(user.name, user.password));
      const answer = await call(endpoint, await heldToken, { allProperties: true });
      expect(answer).toEqual({ status: 403, code: ResultCode.PasswordChangeRequired });
    });

    it.each(named(beforePasswordChange))('%s: past the guard', async (_name, endpoint) => {
      // A session of its own: the endpoint may be the sign-out.
      const user = await heldUser();
      const answer = await call(endpoint, await t.signIn(user.name, user.password));
      expect([401, 403]).not.toContain(answer.status);
      expect([
        ResultCode.Unauthenticated,
        ResultCode.Forbidden,
        ResultCode.PasswordChangeRequired,
      ]).not.toContain(answer.code);
    });
  });

  it.each(named(signedInOnly))(
    '%s by a user without any permission: past the guard',
    async (_name, endpoint) => {
      expect(t.app.hasRoute({ method: endpoint.method, url: `/api${endpoint.path}` })).toBe(true);
      // A session of its own: the endpoint may be the sign-out.
      const user = await t.createStaff();
      const answer = await call(endpoint, await t.signIn(user.name, user.password));
      expect([401, 403]).not.toContain(answer.status);
      expect([ResultCode.Unauthenticated, ResultCode.Forbidden]).not.toContain(answer.code);
      // An upload's sample is a good file of its kind: taken, not merely past the guard.
      if (endpoint.upload) expect(answer).toEqual({ status: 200, code: ResultCode.Ok });
    },
  );
});
