import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const INDEX_HTML = `<!doctype html><title>console</title>${'<link rel="modulepreload">'.repeat(60)}`;
const ENTRY_JS = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `text ${i}`))};`;
const TINY_JS = 'export const a = 1;';

/** A console build as the web build writes it: hashed files under assets/, `.br` and `.gz` beside the large ones. */
function builtConsole(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'uiot-console-'));
  mkdirSync(path.join(dir, 'assets'));
  const write = (file: string, text: string, compressed: boolean) => {
    const target = path.join(dir, file);
    writeFileSync(target, text);
    if (!compressed) return;
    writeFileSync(`${target}.br`, brotliCompressSync(text));
    writeFileSync(`${target}.gz`, gzipSync(text));
  };
  write('index.html', INDEX_HTML, true);
  write('assets/index-Bx7dq2Lk.js', ENTRY_JS, true);
  write('assets/tiny-Cq81aZ0p.js', TINY_JS, false);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const pglite = databases.find((database) => database.kind === 'pglite')!;

describe('the console files', () => {
  let t: TestApp;
  const web = builtConsole();

  beforeAll(async () => {
    t = await openTestApp(pglite, { webDistDir: web.dir, apiDocs: true });
  });
  afterAll(async () => {
    await t?.close();
    web.remove();
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  describe('are sent compressed as the browser accepts', () => {
    it('brotli when accepted, the best of the encodings the build wrote', async () => {
      const response = await get('/assets/index-Bx7dq2Lk.js', 'gzip, deflate, br, zstd');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(ENTRY_JS);
      expect(response.rawPayload.length).toBeLessThan(ENTRY_JS.length / 3);
    });

    it('gzip when brotli is not accepted', async () => {
      const response = await get('/assets/index-Bx7dq2Lk.js', 'gzip, deflate');
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(response.rawPayload).toString()).toBe(ENTRY_JS);
    });

    it.each([
      ['no Accept-Encoding', undefined],
      ['identity only', 'identity'],
    ])('as they are with %s', async (_case, acceptEncoding) => {
      const response = await get('/assets/index-Bx7dq2Lk.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body).toBe(ENTRY_JS);
    });

    it('as they are when the build wrote no compressed copy (a file too small to gain)', async () => {
      const response = await get('/assets/tiny-Cq81aZ0p.js', 'br, gzip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe(TINY_JS);
    });

    it("while the API's answers above a kilobyte are compressed as they go", async () => {
      const response = await get('/api/docs/json', 'gzip, br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toMatchObject({
        openapi: '3.1.0',
      });
    });

    it('and a missing file is a 404, in whatever encoding it is asked', async () => {
      for (const acceptEncoding of ['br', 'gzip', undefined]) {
        const response = await get('/assets/gone-D0000000.js', acceptEncoding);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ success: false, code: ResultCode.NotFound });
      }
    });
  });

  describe('are cached by what they are', () => {
    it('hashed files under /assets/ for a year, never revalidated', async () => {
      for (const acceptEncoding of ['br', 'gzip', undefined]) {
        const response = await get('/assets/index-Bx7dq2Lk.js', acceptEncoding);
        expect(response.headers['cache-control']).toBe(IMMUTABLE);
      }
      expect((await get('/assets/tiny-Cq81aZ0p.js')).headers['cache-control']).toBe(IMMUTABLE);
    });

    it.each(['/', '/index.html'])('index.html at %s revalidated on every load', async (url) => {
      for (const acceptEncoding of ['br', 'gzip', undefined]) {
        const response = await get(url, acceptEncoding);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.headers.vary).toMatch(/accept-encoding/i);
      }
      expect(brotliDecompressSync((await get(url, 'br')).rawPayload).toString()).toBe(INDEX_HTML);
    });

    it.each(['/login', '/device/unit', '/sys/staff?pageIndex=2'])(
      'index.html for the client-side route %s, compressed and revalidated',
      async (url) => {
        const compressed = await get(url, 'gzip, deflate, br');
        expect(compressed.statusCode).toBe(200);
        expect(compressed.headers['content-type']).toMatch(/^text\/html/);
        expect(compressed.headers['content-encoding']).toBe('br');
        expect(compressed.headers['cache-control']).toBe('no-cache');
        expect(compressed.headers.vary).toMatch(/accept-encoding/i);
        expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(INDEX_HTML);

        const plain = await get(url);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers['cache-control']).toBe('no-cache');
        expect(plain.body).toBe(INDEX_HTML);
      },
    );

    it('/config.json revalidated on every load', async () => {
      const response = await get('/config.json', 'br, gzip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
    });
  });
});
