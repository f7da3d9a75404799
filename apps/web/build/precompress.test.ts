import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_BYTES, precompressDir } from './precompress.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function build(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'uiot-precompress-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const text = (bytes: number) => 'const console = "UIOT";\n'.repeat(Math.ceil(bytes / 24)).slice(0, bytes);

describe('precompressDir', () => {
  it('writes .br and .gz beside each text file of at least 1 KB, in every folder, decompressing to the file', async () => {
    const files = {
      'index.html': text(2000),
      'assets/index-Bx7dq2Lk.js': text(50_000),
      'assets/index-Cq81aZ0p.css': text(MIN_BYTES),
      'logo.svg': text(4000),
      'assets/locale-D0a1b2c3.json': text(3000),
    };
    const dir = build(files);
    await precompressDir(dir);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(dir, name);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString(), name).toBe(content);
      expect(gunzipSync(readFileSync(`${file}.gz`)).toString(), name).toBe(content);
      expect(readFileSync(`${file}.br`).length, name).toBeLessThan(content.length);
    }
  });

  it('leaves small files, files of other kinds and incompressible ones as they are', async () => {
    const dir = build({
      'assets/tiny-Cq81aZ0p.js': text(MIN_BYTES - 1),
      'assets/photo-D0a1b2c3.png': text(8000),
      'assets/noise-E9f8e7d6.js': randomBytes(4096),
    });
    expect(await precompressDir(dir)).toEqual([]);
    expect(readdirSync(path.join(dir, 'assets')).sort()).toEqual([
      'noise-E9f8e7d6.js',
      'photo-D0a1b2c3.png',
      'tiny-Cq81aZ0p.js',
    ]);
  });
});
