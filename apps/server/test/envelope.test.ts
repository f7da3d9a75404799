import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
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
  translateResult,
} from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ADMIN_NAME,
  ADMIN_PASSWORD,
  createTestApp,
  freshAddress,
  openTestApp,
  type TestApp,
  urlOf,
} from './support/app.ts';
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
  /** The app with API_DOCS on, on the same database. */
  let withDocs: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await openTestApp(kind);
    withDocs = await createTestApp(t.database, { apiDocs: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await withDocs?.closeApp();
    await t?.close();
  });

  const loginCheck = (body: unknown, lang?: string) =>
    t.callRaw<FieldIssue[]>({
      url: urlOf(api.auth.loginCheck),
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
      const response = await t.callRaw({
        url: urlOf(api.auth.loginCheck),
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

    it('answers a body over 1 MB with the 413 envelope', async () => {
      const response = await t.callRaw({
        url: urlOf(api.auth.loginCheck),
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
      ['GET', '/nope'],
    ] as const)('answers %s %s with the 404 envelope', async (method, url) => {
      const response = await t.callRaw({
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
        const response = await t.call(endpoint);
        expect(response.status).toBe(200);
        expect(envelope(endpoint.response).parse(response.body)).toEqual(response.body);
        expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok, message: '操作成功' });
      },
    );

    it('tell the values the login page needs', async () => {
      expect((await t.call(api.system.health)).body.data).toEqual({
        status: 'ok',
        version: BUILD_VERSION,
      });
      expect((await t.call(api.system.getStationCode)).body.data).toBe('UIOT-001');
      expect((await t.call(api.system.getLoginParams)).body.data).toEqual({
        userRegister: false,
      });
      try {
        await t.setParam('UserRegisterLorawan', 'true');
        await t.setParam('SupportMultiLanguage', 'false');
        expect((await t.call(api.system.getLoginParams)).body.data).toEqual({
          userRegister: true,
        });
        expect((await t.call(api.system.getSupportMultiLanguage)).body.data).toBe(false);
      } finally {
        await t.setParam('UserRegisterLorawan', 'false');
        await t.setParam('SupportMultiLanguage', 'true');
      }
      expect((await t.call(api.system.getSupportMultiLanguage)).body.data).toBe(true);
    });

    it('reports readiness of the database and the device bus', async () => {
      const response = await t.call(api.system.ready);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ database: true, mqtt: true });
    });

    it('keep the feature flags for signed-in users', async () => {
      expect((await t.call(api.system.getFeatureFlags)).status).toBe(401);
      const user = await t.createStaff();
      const token = await t.signIn(user.name, user.password);
      const flags = await t.call(api.system.getFeatureFlags, { token });
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

    it('serves an OpenAPI 3.1 document of every endpoint at /api/docs/json when API_DOCS is on', async () => {
      const response = await withDocs.app.inject({ method: 'GET', url: '/api/docs/json' });
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
      // An upload is described as the multipart body it is, with its kinds' limits.
      const uploads = ALL_ENDPOINTS.filter((e) => e.upload);
      expect(uploads.length).toBeGreaterThan(0);
      for (const endpoint of uploads) {
        const operation = doc.paths[`/api${endpoint.path}`]?.[endpoint.method.toLowerCase()] as {
          requestBody?: {
            content: Record<string, { schema: { properties: Record<string, { format?: string }> } }>;
          };
        };
        const content = operation.requestBody?.content ?? {};
        expect(Object.keys(content), endpoint.path).toEqual(['multipart/form-data']);
        expect(content['multipart/form-data']?.schema.properties.file?.format, endpoint.path).toBe('binary');
      }
      const page = await withDocs.app.inject({ method: 'GET', url: '/api/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    });
  });

  describe('finding 11: every error the server sends is the envelope, translated', () => {
    /** One request over a socket of its own, as written: status, lower-cased headers and the JSON body. */
    const raw = (request: string) =>
      new Promise<{ status: number; headers: Record<string, string>; body: unknown }>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const answer = Buffer.concat(chunks).toString('utf8');
          const [head = '', ...rest] = answer.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((line) => {
              const colon = line.indexOf(':');
              return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
            }),
          );
          resolve({
            status: Number(statusLine.split(' ')[1]),
            headers,
            body: JSON.parse(rest.join('\r\n\r\n')),
          });
        });
      });
    const request = (line: string, headers: string[], body = '') =>
      `${line}\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${body}`;

    it.each(['/api/docs', '/api/docs/json', '/api/docs/static/index.html'])(
      'serves no API map at %s unless API_DOCS is on: 404 without a session',
      async (url) => {
        const response = await t.callRaw({ url, lang: 'en' });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ success: false, code: ResultCode.NotFound });
      },
    );

    it('503 for a request that arrives while the server closes', async () => {
      const closing = await createTestApp(t.database);
      await closing.app.listen({ port: 0, host: '127.0.0.1' });
      const { port: closingPort } = closing.app.server.address() as AddressInfo;
      const socket = net.connect(closingPort, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      const ended = new Promise((resolve) => socket.on('close', resolve));
      // Two requests on one connection: the sign-in (a password hash) is still running when the server
      // starts closing, so the second one arrives on a kept-alive connection of a closing server.
      const body = JSON.stringify({ name: ADMIN_NAME, pwd: ADMIN_PASSWORD });
      const started = once(closing.app.server, 'request');
      socket.write(
        `POST /api/staff/loginCheck HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
          'GET /api/health HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\n\r\n',
      );
      await started;
      const closed = closing.closeApp();
      await ended;
      await closed;
      const answers = Buffer.concat(chunks)
        .toString('utf8')
        .split(/(?=HTTP\/1\.1 )/);
      expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 503']);
      expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toEqual({
        success: false,
        data: null,
        code: ResultCode.ServiceUnavailable,
        message: 'Service unavailable',
      });
    });

    describe.each(['zh-CN', 'en', 'zh-TW'] as const)('in %s', (lang) => {
      const expected = (code: number, params?: Record<string, string | number>) => ({
        success: false,
        data: null,
        code,
        message: translateResult(code, lang, params),
      });

      it('431 for a 100 KB query string (the header read on for the language)', async () => {
        const answer = await raw(
          request(`GET /api/health?q=${'a'.repeat(100_000)} HTTP/1.1`, [`Accept-Language: ${lang}`]),
        );
        expect(answer.status).toBe(431);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(envelopeShape.parse(answer.body)).toEqual(expected(ResultCode.RequestTooLarge));
      });

      it('431 for headers over the limit', async () => {
        const answer = await raw(
          request('GET /api/health HTTP/1.1', [
            `Accept-Language: ${lang}`,
            `X-Padding: ${'p'.repeat(20_000)}`,
          ]),
        );
        expect(answer.status).toBe(431);
        expect(envelopeShape.parse(answer.body)).toEqual(expected(ResultCode.RequestTooLarge));
      });

      it.each([
        ['a space in the path', 'GET /api/he alth HTTP/1.1'],
        ['an unknown method', 'FETCH /api/health HTTP/1.1'],
        ['a control character in the path', 'GET /api/\u0001health HTTP/1.1'],
      ])('400 for a malformed request: %s', async (_what, line) => {
        const answer = await raw(request(line, [`Accept-Language: ${lang}`]));
        expect(answer.status).toBe(400);
        expect(envelopeShape.parse(answer.body)).toEqual(expected(ResultCode.MalformedRequest));
      });

      it('400 for bad percent-encoding in the path', async () => {
        const response = await t.callRaw({ url: '/api/%E0%A4%A', lang });
        expect(response.status).toBe(400);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.body).toEqual(expected(ResultCode.MalformedRequest));
      });

      it('400 for malformed JSON', async () => {
        const response = await t.callRaw({
          url: urlOf(api.auth.loginCheck),
          payload: '{"name": "admin", ',
          contentType: 'application/json',
          lang,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected(ResultCode.InvalidInput));
      });

      it('400 for a body nested deeper than 64 levels', async () => {
        const response = await t.callRaw({
          url: urlOf(api.auth.loginCheck),
          payload: `${'['.repeat(65)}${']'.repeat(65)}`,
          contentType: 'application/json',
          lang,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected(ResultCode.InputTooDeep, { max: 64 }));
      });

      it('413 for a body over 1 MiB', async () => {
        const response = await t.callRaw({
          url: urlOf(api.auth.loginCheck),
          payload: JSON.stringify({ name: 'admin', pwd: 'x'.repeat(1024 * 1024) }),
          contentType: 'application/json',
          lang,
        });
        expect(response.status).toBe(413);
        expect(response.body).toEqual(expected(ResultCode.PayloadTooLarge));
      });

      it.each(['application/xml', 'text/plain', 'multipart/form-data; boundary=x'])(
        '415 for a body of type %s',
        async (contentType) => {
          const response = await t.call(api.auth.loginCheck, { payload: '<a/>', contentType, lang });
          expect(response.status).toBe(415);
          expect(response.body).toEqual(expected(ResultCode.UnsupportedContentType));
        },
      );

      it('404 for an unknown /api path', async () => {
        const response = await t.callRaw({ url: '/api/staff/nope', lang });
        expect(response.status).toBe(404);
        expect(response.body).toEqual(expected(ResultCode.NotFound));
      });

      it.each([
        ['GET', '/api/staff/loginCheck', 'POST'],
        ['POST', '/api/health', 'GET, HEAD'],
      ] as const)('405 for %s %s, naming the methods it takes', async (method, url, allow) => {
        const response = await t.callRaw({ method, url, lang, ...(method === 'POST' ? { body: {} } : {}) });
        expect(response.status).toBe(405);
        expect(response.headers.allow).toBe(allow);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.body).toEqual(expected(ResultCode.MethodNotAllowed, { method }));
      });
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
      const response = await t.call(api.auth.getUserInfo);
      expect(response.status).toBe(401);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeDefined();
    });

    it('allow no cross-origin caller by default', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: urlOf(api.system.health),
        headers: { origin: 'https://evil.example.com' },
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
