import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ALL_ENDPOINTS,
  ALL_PERMISSIONS,
  accessKeys,
  api,
  defineEndpoint,
  type Endpoint,
  isPermissionKey,
  MENU_CATALOGUE,
  Permission,
  ResultCode,
} from '@uiot/contracts';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { NON_CONTRACT_ROUTES } from '../src/app.ts';
import { bind, registerEndpoints } from '../src/http/endpoints.ts';
import { installErrorHandler } from '../src/http/error-handler.ts';
import { installGuard } from '../src/http/guard.ts';
import { installOpLog } from '../src/http/op-log-hook.ts';
import { ADMIN_NAME, ADMIN_PASSWORD, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';

interface RegisteredRoute {
  methods: string[];
  url: string;
  endpoint: Endpoint | undefined;
}

/** Every route registered on any app built in this file, seen by an onRoute hook added at creation. */
const registered = vi.hoisted(() => [] as RegisteredRoute[]);

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const factory = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      registered.push({
        methods: [route.method].flat().map(String),
        url: route.url,
        endpoint: (route.config as { endpoint?: Endpoint } | undefined)?.endpoint,
      });
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: factory, fastify: factory };
});

const isDocs = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');

/** A console build of two files, so the static routes of the console exist. */
function fakeConsole(): { dir: string; files: string[]; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'uiot-console-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.info(1);');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `/${path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`);
  return { dir, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Whether a registered URL is one of NON_CONTRACT_ROUTES; `/*` stands for the console's own files. */
function nonContractEntry(url: string, consoleFiles: readonly string[]): string | undefined {
  return NON_CONTRACT_ROUTES.find((entry) => {
    if (entry === '/*') return url === '/*' || url === '/' || consoleFiles.includes(url);
    if (entry.endsWith('/*')) return url.startsWith(entry.slice(0, -1));
    return url === entry;
  });
}

describe.each(databases)('access control ($kind)', (kind) => {
  let t: TestApp;
  let routes: RegisteredRoute[];
  const web = fakeConsole();

  beforeAll(async () => {
    const before = registered.length;
    t = await openTestApp(kind, { webDistDir: web.dir, apiDocs: true });
    routes = registered.slice(before);
  });
  afterAll(async () => {
    await t?.close();
    web.remove();
  });

  describe('routes', () => {
    it('were all seen by the route hook', () => {
      expect(routes.length).toBeGreaterThan(ALL_ENDPOINTS.length);
      for (const route of routes) {
        for (const method of route.methods) {
          if (method === 'OPTIONS' || route.url.includes('*')) continue;
          expect(t.app.hasRoute({ method: method as 'GET', url: route.url }), `${method} ${route.url}`).toBe(
            true,
          );
        }
      }
    });

    it('carry a contract endpoint with an access declaration under /api/, the docs aside', () => {
      const apiRoutes = routes.filter((r) => r.url.startsWith('/api/') && !isDocs(r.url));
      expect(apiRoutes.length).toBeGreaterThanOrEqual(ALL_ENDPOINTS.length);
      const undeclared = apiRoutes.filter((r) => {
        const access = r.endpoint?.access;
        const keys = access === undefined ? undefined : accessKeys(access);
        return !(
          access === 'public' ||
          access === 'signedIn' ||
          access === 'alarmBoard' ||
          (keys && keys.length > 0 && keys.every(isPermissionKey))
        );
      });
      expect(undeclared.map((r) => `${r.methods} ${r.url}`)).toEqual([]);
      for (const route of apiRoutes) expect(route.url).toBe(`/api${route.endpoint!.path}`);
    });

    it('include every endpoint of the contract, with its method', () => {
      for (const endpoint of ALL_ENDPOINTS) {
        const url = `/api${endpoint.path}`;
        expect(t.app.hasRoute({ method: endpoint.method, url }), `${endpoint.method} ${url}`).toBe(true);
        const route = routes.find((r) => r.url === url && r.methods.includes(endpoint.method));
        expect(route?.endpoint, url).toBe(endpoint);
      }
      const paths = ALL_ENDPOINTS.map((e) => `${e.method} ${e.path}`);
      expect(new Set(paths).size).toBe(paths.length);
    });

    it('outside the contract are exactly NON_CONTRACT_ROUTES', () => {
      // The CORS plugin answers preflight requests on every path: a method catch-all, not a route of ours.
      const outside = routes.filter(
        (r) => !r.endpoint && !(r.url === '*' && r.methods.every((m) => m === 'OPTIONS')),
      );
      const unlisted = outside.filter((r) => !nonContractEntry(r.url, web.files));
      expect(unlisted.map((r) => `${r.methods} ${r.url}`)).toEqual([]);
      const used = new Set(outside.map((r) => nonContractEntry(r.url, web.files)));
      expect([...used].sort()).toEqual([...NON_CONTRACT_ROUTES].sort());
      expect(outside.filter((r) => r.url.startsWith('/api/') && !isDocs(r.url))).toEqual([]);
    });
  });

  describe('the guard', () => {
    const nonPublic = ALL_ENDPOINTS.filter((e) => e.access !== 'public');

    it('covers at least the signed-in endpoints of the contract', () => {
      expect(nonPublic.length).toBeGreaterThan(5);
    });

    it.each(nonPublic.map((e) => [`${e.method} ${e.path}`, e] as const))(
      'refuses %s without a token with 401',
      async (_name, endpoint) => {
        const response = await t.call(endpoint, {
          ...(endpoint.method === 'POST' ? { payload: {} } : {}),
          lang: 'en',
        });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({
          success: false,
          code: ResultCode.Unauthenticated,
          data: null,
          message: 'Identity expired, please log in again',
        });
      },
    );

    it.each(nonPublic.map((e) => [`${e.method} ${e.path}`, e] as const))(
      'refuses %s with an unknown token with 401',
      async (_name, endpoint) => {
        const response = await t.call(endpoint, {
          ...(endpoint.method === 'POST' ? { payload: {} } : {}),
          token: 'not-a-real-token',
        });
        expect(response.status).toBe(401);
        // A board's display session ends only by its link's revocation: its board says so.
        expect(response.body.code).toBe(
          endpoint.access === 'alarmBoard' ? ResultCode.AlarmBoardRevoked : ResultCode.Unauthenticated,
        );
      },
    );
  });

  describe('the guard on a permission key', () => {
    const guarded = defineEndpoint({
      method: 'GET',
      path: '/test/guarded',
      access: Permission.StaffRead,
      module: 'test',
      summary: 'An endpoint that needs staff.read',
      response: z.string(),
    });

    it('refuses a caller without a token (401) or without the key (403) and lets a holder in', async () => {
      // No contract endpoint declares a permission key yet: the guard is exercised on one of its own.
      const app = Fastify({ logger: false });
      app.setValidatorCompiler(() => (data) => ({ value: data }));
      app.decorateRequest('lang', 'zh-CN');
      app.decorateRequest('resultCode', undefined);
      installErrorHandler(app);
      installGuard(app, t.services.sessions, t.services.alarms.board);
      registerEndpoints(app, [bind(guarded, async () => 'inside')], installOpLog(app, t.services.opLog));
      try {
        const status = async (token?: string) => {
          const response = await app.inject({
            method: 'GET',
            url: '/api/test/guarded',
            headers: token ? { authorization: `Bearer ${token}` } : {},
          });
          return [response.statusCode, response.json<{ code: number; data: unknown }>()] as const;
        };
        const plain = await t.createStaff({ permissions: [Permission.OpLogRead] });
        const holder = await t.createStaff({ permissions: [Permission.StaffRead] });
        const [anonymous, anonymousBody] = await status();
        expect([anonymous, anonymousBody.code]).toEqual([401, ResultCode.Unauthenticated]);
        const [refused, refusedBody] = await status(await t.signIn(plain.name, plain.password));
        expect([refused, refusedBody.code, refusedBody.data]).toEqual([403, ResultCode.Forbidden, null]);
        const [allowed, allowedBody] = await status(await t.signIn(holder.name, holder.password));
        expect([allowed, allowedBody.data]).toEqual([200, 'inside']);
        const [admin, adminBody] = await status(await t.signIn(ADMIN_NAME, ADMIN_PASSWORD));
        expect([admin, adminBody.data]).toEqual([200, 'inside']);
      } finally {
        await app.close();
      }
    });
  });

  describe('menus and permissions', () => {
    const menuRight = (token: string, id?: string, lang?: string) =>
      t.call(api.auth.queryMenuRight, {
        token,
        ...(id ? { query: { id } } : {}),
        ...(lang ? { lang } : {}),
      });

    it("refuses another user's menus without staff.read (403) and gives them with it", async () => {
      const target = await t.createStaff({ permissions: [Permission.OpLogRead] });
      const plain = await t.createStaff({ permissions: [Permission.LoginLogRead] });
      const reader = await t.createStaff({ permissions: [Permission.StaffRead] });

      const refused = await menuRight(await t.signIn(plain.name, plain.password), target.id, 'en');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        code: ResultCode.Forbidden,
        data: null,
        message: 'You have no permission for this operation, please contact the administrator',
      });

      const allowed = await menuRight(await t.signIn(reader.name, reader.password), target.id);
      expect(allowed.status).toBe(200);
      expect(allowed.body.data.permissions).toEqual([Permission.OpLogRead]);
      expect(allowed.body.data.menus).toEqual(expect.arrayContaining(['Home', 'Profile']));
    });

    it("answers an unknown user's menus with code 1020", async () => {
      const reader = await t.createStaff({ permissions: [Permission.StaffRead] });
      const response = await menuRight(await t.signIn(reader.name, reader.password), 'no-such-staff');
      expect(response.body).toMatchObject({ success: false, code: ResultCode.UserNotFound });
    });

    it("gives the user's own menus and permissions without an id, or with the own id", async () => {
      const user = await t.createStaff({ permissions: [Permission.OpLogRead] });
      const token = await t.signIn(user.name, user.password);
      const own = await menuRight(token);
      expect(own.status).toBe(200);
      expect(own.body.data.menus).toEqual(expect.arrayContaining(['Home', 'Profile']));
      expect(own.body.data.permissions).toEqual([Permission.OpLogRead]);
      expect((await menuRight(token, user.id)).body.data).toEqual(own.body.data);

      const bare = await t.createStaff();
      const bareRight = (await menuRight(await t.signIn(bare.name, bare.password))).body.data;
      expect(bareRight.permissions).toEqual([]);
      // Leaf entries open to everyone; a group shows only when one of its children does.
      const open = MENU_CATALOGUE.filter((m) => !m.permission && !m.children).map((m) => m.name);
      expect(bareRight.menus).toEqual(expect.arrayContaining(open));
      const groups = MENU_CATALOGUE.filter((m) => m.children).map((m) => m.name);
      expect(bareRight.menus.filter((name: string) => groups.includes(name))).toEqual([]);
    });

    it('gives the admin every permission key and every menu', async () => {
      const token = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
      const right = (await menuRight(token)).body.data;
      expect(right.permissions).toEqual([...ALL_PERMISSIONS].sort());
      expect(right.menus).toEqual(expect.arrayContaining(MENU_CATALOGUE.map((m) => m.name)));
      const info = await t.call(api.auth.getUserInfo, {
        token,
      });
      expect(info.body.data.permissions).toEqual([...ALL_PERMISSIONS].sort());
      expect(info.body.data.roles).toEqual(['admin']);
    });

    it("lists every key granted through the user's roles, sorted", async () => {
      const user = await t.createStaff({ permissions: [Permission.StaffRead, Permission.OpLogRead] });
      const right = (await menuRight(await t.signIn(user.name, user.password))).body.data;
      expect(right.permissions).toEqual([Permission.OpLogRead, Permission.StaffRead].sort());
    });
  });
});
