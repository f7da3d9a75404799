import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files a browser fetches, worth compressing once at build instead of on every request. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json)$/;
/** Below this, the headers outweigh what compression saves. */
export const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` of at least `MIN_BYTES`, each
 * only when it is smaller than the file; returns the files written. The server sends the best copy the
 * browser accepts (`preCompressed` of @fastify/static).
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  const written = await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      if (content.length < MIN_BYTES) return [];
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      const copies = [
        { target: `${file}.br`, data: br },
        { target: `${file}.gz`, data: gz },
      ].filter((copy) => copy.data.length < content.length);
      // Renamed into place: a server copying the build meanwhile never sees a half-written copy.
      await Promise.all(
        copies.map(async (copy) => {
          await writeFile(`${copy.target}.partial`, copy.data);
          await rename(`${copy.target}.partial`, copy.target);
        }),
      );
      return copies.map((copy) => copy.target);
    }),
  );
  return written.flat();
}

/** Precompresses the whole build output (chunks, index.html and the public files) once it is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'uiot-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
