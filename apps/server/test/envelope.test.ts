import {
  ALL_ENDPOINTS,
  API_PREFIX,
  api,
  BUILD_VERSION,
  type Endpoint,
  envelope,
  type FieldIssue,
  ResultCode,
  runtimeConfig,
} from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshAddress, openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';

const envelopeShape = z
  .object({ success: z.boolean(), data: z.unknown(), code: z.number().int(), message: z.string().min(1) })
  .strict();

const INVALID_INPUT = {
  'zh-CN': '输入有误，请检查',
  en: 'Invalid input, please check',
  'zh-TW': '輸入有誤，請檢查',
} as const;

describe.each(databases)('envelope and errors ($kind)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const loginCheck = (body: unknown, lang?: string) =>
    t.call<FieldIssue[]>({
      url: '/api/staff/loginCheck',
      body,
      remoteAddress: freshAddress(),
      ...(lang ? { lang } : {}),
    });

  describe('invalid input', () => {
    it.each([
      [
        'zh-CN',
        undefined,
        [
          { path: 'name', message: '请输入用户名' },
          { path: 'pwd', message: '请输入密码' },
        ],
      ],
      [
        'en',
        'en',
        [
          { path: 'name', message: 'Enter the username' },
          { path: 'pwd', message: 'Enter the password' },
        ],
      ],
      [
        'zh-TW',
        'zh-TW',
        [
          { path: 'name', message: '請輸入用戶名稱' },
          { path: 'pwd', message: '請輸入密碼' },
        ],
      ],
    ] as const)('answers 400 with the failing fields in %s', async (lang, header, issues) => {
      for (const body of [{}, { name: '', pwd: '' }, { name: '   ', pwd: '' }]) {
        const response = await loginCheck(body, header);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          code: ResultCode.InvalidInput,
          message: INVALID_INPUT[lang],
          data: issues,
        });
      }
    });

    it('names only the fields that fail, with parameters filled in', async () => {
      const response = await loginCheck({ name: 'x'.repeat(65), pwd: 'Some-Pass-1' }, 'en');
      expect(response.status).toBe(400);
      expect(response.body.data).toEqual([{ path: 'name', message: 'At most 64 characters' }]);
      const zh = await loginCheck({ name: 'x'.repeat(65), pwd: 'Some-Pass-1' });
      expect(zh.body.data).toEqual([{ path: 'name', message: '最多 64 个字符' }]);
    });

    it('reports nested field paths and wrong types', async () => {
      const response = await loginCheck({ name: 42, pwd: ['a'] }, 'en');
      expect(response.status).toBe(400);
      expect(response.body.data.map((issue) => issue.path)).toEqual(['name', 'pwd']);
    });

    it('answers malformed JSON with the 400 envelope', async () => {
      const response = await t.call({
        url: '/api/staff/loginCheck',
        payload: '{"name": "admin", ',
        contentType: 'application/json',
        lang: 'en',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        code: ResultCode.InvalidInput,
        data: null,
        message: INVALID_INPUT.en,
      });
    });

    it('answers an unsupported content type with the 400 envelope', async () => {
      const response = await t.call({
        url: '/api/staff/loginCheck',
        payload: '<login/>',
        contentType: 'application/xml',
      });
      expect(response.status).toBe(400);
      expect(envelopeShape.parse(response.body)).toMatchObject({
        success: false,
        code: ResultCode.InvalidInput,
      });
    });

    it('answers a body over 1 MB with the 413 envelope', async () => {
      const response = await t.call({
        url: '/api/staff/loginCheck',
        payload: JSON.stringify({ name: 'admin', pwd: 'x'.repeat(1024 * 1024) }),
        contentType: 'application/json',
        lang: 'en',
      });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        success: false,
        code: ResultCode.PayloadTooLarge,
        data: null,
        message: 'The submitted content is too large',
      });
    });
  });

  describe('not found', () => {
    it.each([
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['GET', '/api'],
      ['GET', '/api/staff/loginCheck'],
      ['GET', '/nope'],
    ] as const)('answers %s %s with the 404 envelope', async (method, url) => {
      const response = await t.call({
        method,
        url,
        lang: 'zh-TW',
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        code: ResultCode.NotFound,
        data: null,
        message: '請求的資源不存在',
      });
    });
  });

  describe('public endpoints', () => {
    // Public reads that need no input (the registration calls need an address and are tested on their own).
    const publicGets = ALL_ENDPOINTS.filter(
      (e) => e.access === 'public' && e.method === 'GET' && (!e.query || e.query.safeParse({}).success),
    );

    it('include the ones the login page needs', () => {
      expect(publicGets.map((e) => e.path)).toEqual(
        expect.arrayContaining([
          '/health',
          '/fp/getStationCode',
          '/params/getSupportMultiLanguage',
          '/params/getLoginParams',
        ]),
      );
    });

    it.each(publicGets.map((e) => [e.path, e] as const))(
      'answer %s without a token, as the contract declares',
      async (_path, endpoint: Endpoint) => {
        const response = await t.call({ url: `${API_PREFIX}${endpoint.path}` });
        expect(response.status).toBe(200);
        expect(envelope(endpoint.response).parse(response.body)).toEqual(response.body);
        expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok, message: '操作成功' });
      },
    );

    it('tell the values the login page needs', async () => {
      expect((await t.call({ url: '/api/health' })).body.data).toEqual({
        status: 'ok',
        version: BUILD_VERSION,
      });
      expect((await t.call({ url: '/api/fp/getStationCode' })).body.data).toBe('UIOT-001');
      expect((await t.call({ url: '/api/params/getLoginParams' })).body.data).toEqual({
        userRegister: false,
      });
      try {
        await t.setParam('UserRegisterLorawan', 'true');
        await t.setParam('SupportMultiLanguage', 'false');
        expect((await t.call({ url: '/api/params/getLoginParams' })).body.data).toEqual({
          userRegister: true,
        });
        expect((await t.call({ url: '/api/params/getSupportMultiLanguage' })).body.data).toBe(false);
      } finally {
        await t.setParam('UserRegisterLorawan', 'false');
        await t.setParam('SupportMultiLanguage', 'true');
      }
      expect((await t.call({ url: '/api/params/getSupportMultiLanguage' })).body.data).toBe(true);
    });

    it('reports readiness of the database and the device bus', async () => {
      const response = await t.call({ url: '/api/ready' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ database: true, mqtt: true });
    });

    it('keep the feature flags for signed-in users', async () => {
      expect((await t.call({ url: '/api/params/getFeatureFlags' })).status).toBe(401);
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const flags = await t.call<Record<string, string>>({ url: '/api/params/getFeatureFlags', token });
      expect(envelope(api.system.getFeatureFlags.response).parse(flags.body)).toEqual(flags.body);
      expect(flags.body.data).toMatchObject({ ChangePwdByFirstLogin: 'true', SupportMultiLanguage: 'true' });
    });
  });

  describe('documents', () => {
    it('serves /config.json as the runtime configuration of the contract', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/config.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      const body = response.json();
      expect(runtimeConfig.strict().parse(body)).toEqual(body);
      expect(body.mqttOptions.port).toBe(8083);
      // Spec §9: path /mqtt, keepalive 30 s, reconnect 5 s (shipped settings), connect timeout 10 s, clean.
      expect(body.mqttOptions).toMatchObject({
        path: '/mqtt',
        keepalive: 30,
        reconnectPeriod: 5_000,
        connectTimeout: 10_000,
        clean: true,
        ssl: false,
      });
      expect(body.websocket.path).toBe('/websocket');
      expect(body.service.url).toBe(API_PREFIX);
    });

    it('serves an OpenAPI 3.1 document of every endpoint at /api/docs/json', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(response.statusCode).toBe(200);
      const doc = response.json<{
        openapi: string;
        paths: Record<string, Record<string, { security?: unknown[] }>>;
      }>();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.paths['/api/staff/loginCheck']?.post).toBeDefined();
      for (const endpoint of ALL_ENDPOINTS) {
        const operation = doc.paths[`/api${endpoint.path}`]?.[endpoint.method.toLowerCase()];
        expect(operation, endpoint.path).toBeDefined();
        expect(Boolean(operation?.security?.length), endpoint.path).toBe(endpoint.access !== 'public');
      }
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/docs'))).toBe(false);
    });

    it('serves the API docs page without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    });
  });

  describe('security headers', () => {
    it.each(['/api/health', '/api/nope', '/config.json'])('are sent with %s', async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['content-security-policy']).toContain("object-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-powered-by']).toBeUndefined();
    });

    it('are sent with errors and refusals too', async () => {
      const response = await t.call({ url: '/api/staff/getUserInfo' });
      expect(response.status).toBe(401);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeDefined();
    });

    it('allow no cross-origin caller by default', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin: 'https://evil.example.com' },
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
