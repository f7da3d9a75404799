import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Smaller replies gain too little from compression to pay for it. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Replies above a kilobyte go out compressed (Brotli, else gzip) when the client takes it: the API's pages
 * of rows, its CSV exports, its OpenAPI document. A reply that carries its Content-Encoding already and
 * formats that are compressed in themselves (xlsx, images) are left as they are. Request bodies are taken
 * as sent: no client of the API compresses them. Register before the routes it is for (app.ts keeps the
 * console's files, compressed by the build, out of its context).
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
}
