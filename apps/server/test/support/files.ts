import type { Envelope, FileKind, StoredFileInfo } from '@uiot/contracts';
import { api } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import type { TestApp } from './app.ts';
import { urlOf } from './app.ts';

/** The smallest PNG and JPEG heads the type sniffing knows them by, with a little content after. */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR png body'),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF body')]);

/** A real xlsx workbook with one empty sheet. */
export async function emptyWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Sheet1');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export interface Part {
  field?: string;
  /** A file part: its name and bytes (and declared type); a text part otherwise. */
  name?: string;
  bytes?: Buffer;
  type?: string;
  text?: string;
}

/** A multipart/form-data body as a browser's FormData encodes it. */
export async function multipart(parts: Part[]): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.bytes) {
      const blob = new Blob([part.bytes], { type: part.type ?? 'application/octet-stream' });
      form.append(part.field ?? 'file', blob, part.name ?? 'file.bin');
    } else {
      form.append(part.field ?? 'note', part.text ?? '');
    }
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

export interface UploadAnswer<T = StoredFileInfo> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Envelope<T>;
}

/** Posts parts to the upload endpoint for a kind, as the given user. */
export async function uploadParts(
  t: TestApp,
  token: string | null,
  kind: FileKind | string,
  parts: Part[],
  lang = 'en',
): Promise<UploadAnswer> {
  const { payload, contentType } = await multipart(parts);
  const response = await t.app.inject({
    method: 'POST',
    url: urlOf(api.file.upload),
    query: { kind },
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': contentType,
      'accept-language': lang,
    },
    payload,
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

/** Uploads one file and answers its id; fails the test when the upload is refused. */
export async function uploadFile(
  t: TestApp,
  token: string,
  kind: FileKind,
  bytes: Buffer,
  name = kind === 'import' ? 'workbook.xlsx' : 'signature.png',
): Promise<string> {
  const answer = await uploadParts(t, token, kind, [{ name, bytes }]);
  if (answer.status !== 200 || !answer.body.success) {
    throw new Error(`upload refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body.data.id;
}
