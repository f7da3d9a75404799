import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { XLSX_MIME } from '@uiot/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES, installCompression } from './compression.ts';
import { sendCsv } from './csv-reply.ts';

const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `锁 ${i}`, state: 'closed' }));
const SCRIPT = `export const rows = ${JSON.stringify(rows)};\n`;
/** Bytes that look like nothing compressible: what an xlsx (a zip archive) is to the compressor. */
const ARCHIVE = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(4096, 7)]);

let app: FastifyInstance;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'uiot-compress-'));
  mkdirSync(path.join(dir, 'assets'));
  // A build with precompressed copies beside the file, as the console's build writes them.
  writeFileSync(path.join(dir, 'assets', 'app.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'app.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'app.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'plain.js'), SCRIPT);

  app = Fastify();
  await installCompression(app);
  await app.register(fastifyStatic, { root: dir, preCompressed: true, wildcard: true });
  app.get('/api/page', async () => ({ success: true, data: { rows, total: rows.length } }));
  app.get('/api/small', async () => ({ success: true, data: null }));
  app.get('/api/csv', (_req, reply) =>
    sendCsv(reply, {
      fileName: 'rows.csv',
      content: (async function* () {
        yield '\uFEFFid,name\r\n';
        for (const row of rows) yield `${row.id},${row.name}\r\n`;
      })(),
    }),
  );
  app.get('/api/xlsx', (_req, reply) => reply.header('content-type', XLSX_MIME).send(ARCHIVE));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('compression of replies', () => {
  it('sends a page of rows in Brotli when the client takes it, gzip when it takes only that', async () => {
    const plain = await get('/api/page');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const br = await get('/api/page', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gzip = await get('/api/page', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    expect((await get('/api/page', 'identity')).headers['content-encoding']).toBeUndefined();
    expect((await get('/api/page', 'deflate')).headers['content-encoding']).toBeUndefined();
  });

  it('leaves replies under the threshold as they are', async () => {
    const small = await get('/api/small', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ success: true, data: null });
  });

  it('sends a CSV export compressed, byte for byte the same file once decoded', async () => {
    const plain = await get('/api/csv');
    const br = await get('/api/csv', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(br.headers['content-disposition']).toBe('attachment; filename="rows.csv"');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(plain.body.startsWith('\uFEFFid,name\r\n0,锁 0\r\n')).toBe(true);
  });

  it('sends an xlsx file as it is', async () => {
    const xlsx = await get('/api/xlsx', 'br, gzip');
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.rawPayload.equals(ARCHIVE)).toBe(true);
  });

  it('sends a precompressed file once encoded, never twice', async () => {
    const br = await get('/assets/app.js', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/app.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
  });

  it('compresses a file that has no precompressed copy', async () => {
    const br = await get('/assets/plain.js', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
  });
});
