// How the app answers the browser at the HTTP level: security headers that depend on whether the console
// was reached over plain HTTP, through a trusted TLS proxy or over its own HTTPS, what a console of another
// origin may read (CORS_ORIGINS), and compressed replies.
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { api, runtimeConfig } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_NAME, ADMIN_PASSWORD, createTestApp, type TestApp, urlOf } from './support/app.ts';
import { cspDirective } from './support/csp.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { tempDir } from './support/server-process.ts';
import { type SelfSignedCertificate, selfSignedCertificate } from './support/tls.ts';

const PROXY = '10.9.0.5';
const BOARD_ORIGIN = 'http://board.example.com:8080';
const FORWARDED_HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example.com' };

describe('HTTP delivery', () => {
  let database: TestDatabase;
  let plain: TestApp;
  let proxied: TestApp;
  let secure: TestApp;
  let crossOrigin: TestApp;
  let certificate: SelfSignedCertificate;
  let secureOrigin: string;
  const dir = tempDir('uiot-tls-');

  beforeAll(async () => {
    database = await databases[0]!.open();
    certificate = selfSignedCertificate(dir.dir);
    plain = await createTestApp(database, { apiDocs: true });
    proxied = await createTestApp(database, { trustedProxies: [PROXY] });
    crossOrigin = await createTestApp(database, { corsOrigins: [BOARD_ORIGIN] });
    secure = await createTestApp(database, {
      tls: { cert: certificate.cert, key: certificate.key },
      apiDocs: true,
    });
    await secure.app.listen({ port: 0, host: '127.0.0.1' });
    secureOrigin = `https://127.0.0.1:${(secure.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const t of [plain, proxied, secure, crossOrigin]) await t?.closeApp();
    await database?.close();
    dir.remove();
  });

  /** GET over the secure app's real HTTPS listener, trusting its self-signed certificate. */
  function getSecure(path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const req = request(`${secureOrigin}${path}`, { ca: certificate.cert, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
        req.end();
      },
    );
  }

  describe('over plain HTTP from another machine', () => {
    it.each(['/api/health', '/config.json', '/api/nope', '/monitor/runtime'])(
      'lets the browser load %s as it is, without HTTPS upgrade or HSTS',
      async (url) => {
        const response = await plain.app.inject({ method: 'GET', url, headers: { host: '10.20.0.7:8686' } });
        const policy = response.headers['content-security-policy'];
        expect(policy).not.toContain('upgrade-insecure-requests');
        expect(response.headers['strict-transport-security']).toBeUndefined();
        expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
        expect(response.headers['origin-agent-cluster']).toBeUndefined();
        expect(cspDirective(policy, 'connect-src')).toEqual([
          "'self'",
          'ws://10.20.0.7:8686/websocket',
          'ws://10.20.0.7:8083/mqtt',
        ]);
        expect(cspDirective(policy, 'worker-src')).toEqual(["'self'", 'blob:']);
      },
    );

    it('believes no X-Forwarded-Proto while no proxy is trusted', async () => {
      const response = await plain.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { host: '10.20.0.7:8686', ...FORWARDED_HTTPS },
        remoteAddress: PROXY,
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(cspDirective(response.headers['content-security-policy'], 'connect-src')).toContain(
        'ws://10.20.0.7:8083/mqtt',
      );
    });

    it('tells the console to reach the broker without TLS', async () => {
      const response = await plain.app.inject({ method: 'GET', url: '/config.json' });
      expect(runtimeConfig.parse(response.json()).mqttOptions?.ssl).toBe(false);
    });

    it('serves the API documentation without asking for an HTTPS upgrade', async () => {
      const response = await plain.app.inject({ method: 'GET', url: '/api/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    });
  });

  describe('behind a trusted TLS proxy (TRUSTED_PROXIES)', () => {
    it('sends HSTS and the upgrade, and names the wss endpoints of the forwarded host', async () => {
      const response = await proxied.app.inject({
        method: 'GET',
        url: urlOf(api.system.health),
        headers: { host: '127.0.0.1:8686', ...FORWARDED_HTTPS },
        remoteAddress: PROXY,
      });
      const policy = response.headers['content-security-policy'];
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(cspDirective(policy, 'upgrade-insecure-requests')).toEqual([]);
      expect(cspDirective(policy, 'connect-src')).toEqual([
        "'self'",
        'wss://console.example.com/websocket',
        'wss://console.example.com:8083/mqtt',
      ]);
    });

    it('believes the forwarded headers of that proxy only', async () => {
      const response = await proxied.app.inject({
        method: 'GET',
        url: urlOf(api.system.health),
        headers: { host: '10.20.0.7:8686', ...FORWARDED_HTTPS },
        remoteAddress: '10.9.0.6',
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['content-security-policy']).not.toContain('console.example.com');
    });
  });

  describe('over its own HTTPS (TLS_CERT, TLS_KEY)', () => {
    it('sends HSTS, the upgrade and wss endpoints, and tells the console to use TLS for the broker', async () => {
      const response = await getSecure('/config.json', { host: 'console.test:8443' });
      expect(response.status).toBe(200);
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      const policy = response.headers['content-security-policy'];
      expect(cspDirective(policy, 'upgrade-insecure-requests')).toEqual([]);
      expect(cspDirective(policy, 'connect-src')).toEqual([
        "'self'",
        'wss://console.test:8443/websocket',
        'wss://console.test:8083/mqtt',
      ]);
      expect(runtimeConfig.parse(JSON.parse(response.body.toString())).mqttOptions?.ssl).toBe(true);
    });

    it('compresses over HTTPS as over HTTP', async () => {
      const response = await getSecure('/api/docs/json', { 'accept-encoding': 'br' });
      expect(response.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(response.body).toString()).openapi).toBe('3.1.0');
    });
  });

  describe('for a console served from another origin (CORS_ORIGINS)', () => {
    it("lets that origin's pages call the API and read the server's clock, and no other origin", async () => {
      const ask = (origin: string) =>
        crossOrigin.app.inject({ method: 'GET', url: urlOf(api.system.health), headers: { origin } });
      const allowed = await ask(BOARD_ORIGIN);
      expect(allowed.headers['access-control-allow-origin']).toBe(BOARD_ORIGIN);
      expect(String(allowed.headers['access-control-expose-headers']).split(/,\s*/)).toContain('Date');
      const other = await ask('http://elsewhere.example.com');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('compression', () => {
    it('sends the large API answers compressed when the client takes it', async () => {
      const identity = await plain.app.inject({ method: 'GET', url: '/api/docs/json' });
      const gzip = await plain.app.inject({
        method: 'GET',
        url: '/api/docs/json',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(identity.body);
    });

    it('leaves the small envelopes as they are', async () => {
      const response = await plain.app.inject({
        method: 'GET',
        url: urlOf(api.system.health),
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json()).toMatchObject({ success: true });
    });

    it('sends an xlsx download as the file itself', async () => {
      const token = await plain.signIn(ADMIN_NAME, ADMIN_PASSWORD);
      const download = (acceptEncoding?: string) =>
        plain.app.inject({
          method: 'GET',
          url: urlOf(api.unit.importTemplate),
          headers: {
            authorization: `Bearer ${token}`,
            ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
          },
        });
      const [asked, bare] = [await download('br, gzip'), await download()];
      expect(asked.statusCode).toBe(200);
      expect(asked.headers['content-encoding']).toBeUndefined();
      // An xlsx file is a zip archive.
      expect(asked.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
      expect(asked.rawPayload.length).toBe(bare.rawPayload.length);
    });
  });
});
