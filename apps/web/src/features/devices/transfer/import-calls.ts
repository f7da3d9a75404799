import { api, type ImportKind } from '@uiot/contracts';
import { call, type DownloadResult, download, type RequestOptions } from '../../../lib/request/index.ts';
import { base64OfDataUrl } from './import-outcome.ts';

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

/** Sends a filled-in template (base64) to the import of its kind: every row is written, or none. */
export function importWorkbook(
  kind: ImportKind,
  file: string,
  options: RequestOptions,
): Promise<{ imported: number }> {
  switch (kind) {
    case 'unit':
      return call(api.unit.import, { body: { file } }, options);
    case 'device':
    case 'lockCode':
      return call(api.device.import, { body: { kind, file } }, options);
    case 'key':
      return call(api.key.import, { body: { file } }, options);
  }
}

/** A chosen file's content in base64 (read as a data URL, without its `data:…;base64,` head). */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(base64OfDataUrl(String(reader.result ?? '')));
    reader.onerror = () => reject(reader.error ?? new Error('The file cannot be read'));
    reader.readAsDataURL(file);
  });
}
