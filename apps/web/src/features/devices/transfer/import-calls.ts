import { api, type ImportKind } from '@uiot/contracts';
import {
  call,
  type DownloadResult,
  download,
  type RequestOptions,
  upload,
} from '../../../lib/request/index.ts';

/** Downloads the Excel template of a kind (an xlsx file, not the envelope). */
export function downloadTemplate(kind: ImportKind, options: RequestOptions): Promise<DownloadResult> {
  switch (kind) {
    case 'unit':
      return download(api.unit.importTemplate, undefined, options);
    case 'device':
    case 'lockCode':
      return download(api.device.importTemplate, { query: { kind } }, options);
    case 'key':
      return download(api.key.importTemplate, undefined, options);
  }
}

/**
 * Sends a filled-in template to the import of its kind: the file is uploaded (multipart, kind import),
 * then the import uses it up by its id. Every row is written, or none.
 */
export async function importWorkbook(
  kind: ImportKind,
  file: File,
  options: RequestOptions,
): Promise<{ imported: number }> {
  const { id: fileId } = await upload(
    api.file.upload,
    { query: { kind: 'import' }, file, fileName: file.name },
    options,
  );
  switch (kind) {
    case 'unit':
      return call(api.unit.import, { body: { fileId } }, options);
    case 'device':
    case 'lockCode':
      return call(api.device.import, { body: { kind, fileId } }, options);
    case 'key':
      return call(api.key.import, { body: { fileId } }, options);
  }
}
