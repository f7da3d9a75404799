import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALL_ENDPOINTS, api } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiPath } from '../src/app.ts';
import { ADMIN_NAME, ADMIN_PASSWORD, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';

describe('isApiPath', () => {
  it('takes /api and what is below it, with or without a query, and nothing else', () => {
    for (const url of ['/api', '/api/', '/api/health', '/api?x=1', '/api/staff/queryPage?pageIndex=1']) {
      expect(isApiPath(url), url).toBe(true);
    }
    for (const url of ['/', '/apis', '/api-docs', '/assets/api.js', '/config.json', '/login?next=/api']) {
      expect(isApiPath(url), url).toBe(false);
    }
  });
});

// Finding 7 of the security review: API answers carried no Cache-Control, the sign-in token and one-time
// passwords included, so a browser or a proxy could keep them.
describe.each(databases)('finding 7: API answers carry Cache-Control: no-store ($kind)', (kind) => {
  let t: TestApp;
  const web = mkdtempSync(path.join(tmpdir(), 'uiot-console-'));

  beforeAll(async () => {
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(web, 'assets', 'app-0123abcd.js'), 'console.info(1);');
    t = await openTestApp(kind, { webDistDir: web });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  it.each(ALL_ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const))(
    '%s, whatever it answers without a session',
    async (_name, endpoint) => {
      const response = await t.call(endpoint, {
        ...(endpoint.method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.headers['cache-control'], String(response.status)).toBe('no-store');
    },
  );

  it('on the sign-in token, the user, a one-time password, a refusal, an unknown path and a bad input', async () => {
    const login = await t.call(api.auth.loginCheck, {
      body: { name: ADMIN_NAME, pwd: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const token = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
    const user = await t.createStaff();
    const answers = [
      await t.call(api.auth.getUserInfo, { token }),
      await t.call(api.staff.resetPwd, { query: { id: user.id }, token }),
      await t.call(api.auth.getUserInfo, { token: 'not-a-real-token' }),
      await t.callRaw({ url: '/api/no/such/endpoint', token }),
      await t.call(api.staff.queryPage, { query: { pageIndex: 0, pageSize: 20 }, token }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it("leaves the console's own caching as it was", async () => {
    const index = await t.app.inject({ url: '/device/device' });
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ url: '/assets/app-0123abcd.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const config = await t.app.inject({ url: '/config.json' });
    expect(config.headers['cache-control']).toBe('no-cache');
  });
});
