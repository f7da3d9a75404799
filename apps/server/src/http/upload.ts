import multipart from '@fastify/multipart';
import {
  type Endpoint,
  FILE_KINDS,
  type FileKind,
  formatBytes,
  ResultCode,
  UPLOAD_FIELD,
} from '@uiot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReceivedUpload } from '../infra/files/file.service.ts';
import { inspectUpload } from '../infra/files/inspect.ts';
import { AppError } from './app-error.ts';

/** Most header lines of the one part (Content-Disposition, Content-Type and a few more). */
const PART_HEADERS_MAX = 16;

/**
 * Multipart bodies are read by the upload endpoints only (their own context): every other endpoint keeps
 * refusing them with 415. Nothing is read before the guard has let the call through (the handler reads).
 */
export async function installMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { files: 1, fields: 0, parts: 1, headerPairs: PART_HEADERS_MAX },
  });
}

/** The kind of an upload endpoint's file: its one kind, or the one the query names among its kinds. */
export function uploadKindOf(endpoint: Endpoint, query: unknown): FileKind {
  const kinds = endpoint.upload?.kinds ?? [];
  const named = (query as { kind?: unknown } | undefined)?.kind;
  const kind = kinds.length === 1 ? kinds[0] : kinds.find((k) => k === named);
  if (!kind) throw AppError.invalid([{ path: 'kind', message: 'v.invalid' }]);
  return kind;
}

const malformed = (httpStatus = 400) => new AppError(ResultCode.UploadMalformed, { httpStatus });

/** A failure of the multipart reader as the envelope's code. */
function uploadFailure(error: unknown, kind: FileKind): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError(ResultCode.FileTooLarge, {
      httpStatus: 413,
      params: { max: formatBytes(FILE_KINDS[kind].maxBytes) },
    });
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return malformed(415);
  // Limits of parts, files and fields, a part that breaks the format, a body cut short.
  return malformed();
}

/**
 * Reads the file of an upload endpoint's multipart body: one part named `file` and nothing else, at most
 * the kind's size (413 beyond, stopped as soon as it is passed), of a type the kind takes as found in its
 * content (415 otherwise, whatever its name or declared type). Answers it with its SHA-256 and its
 * cleaned display name; nothing is stored yet.
 */
export async function receiveUpload(req: FastifyRequest, kind: FileKind): Promise<ReceivedUpload> {
  if (!req.isMultipart()) throw malformed(415);
  const { maxBytes } = FILE_KINDS[kind];
  let received: { bytes: Buffer; filename: string } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type !== 'file' || part.fieldname !== UPLOAD_FIELD) throw malformed();
      received = { bytes: await part.toBuffer(), filename: part.filename };
    }
  } catch (error) {
    throw uploadFailure(error, kind);
  }
  if (!received) throw malformed();
  return inspectUpload(kind, received.bytes, received.filename);
}

/** An upload as the operation log describes it: never its content. */
export function describeUpload(upload: ReceivedUpload) {
  return { kind: upload.kind, name: upload.displayName, size: upload.bytes.length, sha256: upload.sha256 };
}
