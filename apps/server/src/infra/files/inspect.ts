import { createHash } from 'node:crypto';
import { FILE_KINDS, type FileKind, ResultCode } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import { cleanDisplayName } from './display-name.ts';
import type { ReceivedUpload } from './file.service.ts';
import { sniffFileType } from './sniff.ts';

/**
 * The bytes of a file for a kind, typed by their content: refused (1171, HTTP 415) when they are of no type
 * the kind takes, whatever the name or declared type; with their SHA-256 and the cleaned display name.
 * The size is the reader's to bound (FILE_KINDS), before the bytes are all in memory.
 */
export function inspectUpload(kind: FileKind, bytes: Buffer, clientName: string | undefined): ReceivedUpload {
  const { types } = FILE_KINDS[kind];
  const type = sniffFileType(bytes);
  if (!type || !(types as readonly string[]).includes(type)) {
    throw new AppError(ResultCode.FileTypeRefused, {
      httpStatus: 415,
      params: { types: types.map((t) => t.toUpperCase()).join(', ') },
    });
  }
  return {
    kind,
    type,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    displayName: cleanDisplayName(clientName, type),
  };
}
