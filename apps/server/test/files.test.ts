import { createHash, randomBytes } from 'node:crypto';
import {
  ALL_ENDPOINTS,
  ALL_PERMISSIONS,
  api,
  FILE_KINDS,
  PENDING_UPLOADS_MAX,
  ResultCode,
  type StoredFileInfo,
} from '@uiot/contracts';
import { count, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS } from '../src/infra/files/file.service.ts';
import { FileMissingError } from '../src/infra/files/file-store.ts';
import { file } from '../src/infra/files/files.schema.ts';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { moveLegacySignatures } from '../src/modules/org/signature.ts';
import { eventually, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { emptyWorkbook, JPEG, type Part, PNG, uploadFile, uploadParts } from './support/files.ts';
import { expectOk, orgHelpers } from './support/org.ts';
import { sampleQuery } from './support/sample-input.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length)]);

/** A real xlsx workbook of at least `bytes` (stored uncompressed). */
async function largeWorkbook(bytes: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (let row = 0; row * 1000 < bytes; row++) sheet.addRow([randomBytes(500).toString('hex')]);
  return Buffer.from(await workbook.xlsx.writeBuffer({ zip: { compression: 'STORE' } } as never));
}

describe.each(databases)('file store ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const fileRows = async () => (await t.db.select({ n: count() }).from(file))[0]!.n;
  const rowOf = async (id: string) => (await t.db.select().from(file).where(eq(file.id, id)))[0];
  /** A user of their own (uploads count per owner) holding every key. */
  const freshUser = async () => {
    const user = await t.createStaff({ permissions: ALL_PERMISSIONS });
    return { ...user, token: await t.signIn(user.name, user.password) };
  };

  describe('upload', () => {
    it('stores the file under a generated id, described by what the server found in it', async () => {
      const user = await freshUser();
      const answer = await uploadParts(t, user.token, 'signature', [
        { name: 'C:\\fakepath\\my\u202esignature.png', bytes: PNG, type: 'application/x-evil' },
      ]);
      expect(answer.status).toBe(200);
      const stored = answer.body.data;
      expect(stored).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'signature',
        name: 'mysignature.png',
        size: PNG.length,
        contentType: 'image/png',
        sha256: sha256(PNG),
      } satisfies StoredFileInfo);
      expect(await rowOf(stored.id)).toMatchObject({
        kind: 'signature',
        ownerId: user.id,
        size: PNG.length,
        sha256: sha256(PNG),
        contentType: 'image/png',
        displayName: 'mysignature.png',
        refType: null,
        refId: null,
      });
      expect(await t.services.files.store.get(stored.id)).toEqual(PNG);
    });

    it('writes an operation-log row describing the upload by kind, name, size and SHA-256, never its content', async () => {
      const user = await freshUser();
      const secretText = 'CONTENT-THAT-MUST-NOT-BE-LOGGED';
      const bytes = Buffer.concat([PNG, Buffer.from(secretText)]);
      const id = await uploadFile(t, user.token, 'signature', bytes, 'sig.png');
      // The row is written before the upload is stored and completed with its result after the answer.
      const [row] = await eventually(async () => {
        const rows = await t.db
          .select()
          .from(opLog)
          .where(eq(opLog.userId, user.id))
          .orderBy(desc(opLog.id))
          .limit(1);
        return rows[0] && rows[0].resultCode !== null ? rows : undefined;
      });
      expect(row).toMatchObject({
        url: urlOf(api.file.upload),
        methodName: 'files/file/upload',
        resultCode: 200,
      });
      expect(JSON.parse(row!.methodArgs!)).toEqual({
        kind: 'signature',
        file: { kind: 'signature', name: 'sig.png', size: bytes.length, sha256: sha256(bytes) },
      });
      expect(row!.methodArgs).not.toContain(secretText);
      expect(row!.methodArgs).not.toContain(bytes.toString('base64').slice(0, 12));
      expect(row!.methodArgs).not.toContain(id);
    });

    it.each([
      ['zh-CN', '文件过大：此类文件最大 256 KiB'],
      ['en', 'The file is too large: at most 256 KiB for this kind of file'],
      ['zh-TW', '檔案過大：此類檔案最大 256 KiB'],
    ])('answers 413 beyond the limit of the kind, in %s, and stores nothing', async (lang, message) => {
      const user = await freshUser();
      const before = await fileRows();
      const limit = FILE_KINDS.signature.maxBytes;
      const answer = await uploadParts(
        t,
        user.token,
        'signature',
        [{ name: 'big.png', bytes: padded(PNG, limit + 1) }],
        lang,
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ success: false, code: ResultCode.FileTooLarge, message, data: null });
      expect(await fileRows()).toBe(before);
      const exact = await uploadParts(t, user.token, 'signature', [
        { name: 'e.png', bytes: padded(PNG, limit) },
      ]);
      expect(exact.status).toBe(200);
    });

    it('answers 413 over a real connection while the client is still sending a body far over the limit', async () => {
      const user = await freshUser();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const form = new FormData();
      form.append('file', new Blob([PNG, Buffer.alloc(40 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
      const response = await fetch(`http://127.0.0.1:${port}/api/file/upload?kind=signature`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en' },
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ code: ResultCode.FileTooLarge });
    });

    it('has a limit per kind: a workbook may be larger than a signature, up to its own limit', async () => {
      const user = await freshUser();
      const sizeable = await largeWorkbook(FILE_KINDS.signature.maxBytes + 1);
      expect(
        (await uploadParts(t, user.token, 'import', [{ name: 'big.xlsx', bytes: sizeable }])).status,
      ).toBe(200);
      const asSignature = await uploadParts(t, user.token, 'signature', [
        { name: 'big.png', bytes: sizeable },
      ]);
      expect(asSignature.status).toBe(413);
      const over = await uploadParts(t, user.token, 'import', [
        { name: 'huge.xlsx', bytes: padded(sizeable, FILE_KINDS.import.maxBytes + 1) },
      ]);
      expect(over.status).toBe(413);
      expect(over.body.message).toContain('2 MiB');
    });

    it('refuses a file by its content, whatever its name and declared type (415)', async () => {
      const user = await freshUser();
      const before = await fileRows();
      const cases = [
        {
          kind: 'signature',
          name: 'photo.png',
          type: 'image/png',
          bytes: Buffer.from('just text, not a PNG'),
        },
        { kind: 'signature', name: 'sig.jpg', type: 'image/jpeg', bytes: await emptyWorkbook() },
        { kind: 'signature', name: 'sig.svg', type: 'image/svg+xml', bytes: Buffer.from('<svg/>') },
        { kind: 'import', name: 'units.xlsx', type: 'application/vnd.ms-excel', bytes: PNG },
        { kind: 'import', name: 'units.xlsx', type: 'text/csv', bytes: Buffer.from('name\nA\n') },
        { kind: 'signature', name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) },
      ] as const;
      for (const c of cases) {
        const answer = await uploadParts(t, user.token, c.kind, [c], 'en');
        expect(answer.status, c.name).toBe(415);
        expect(answer.body.code).toBe(ResultCode.FileTypeRefused);
      }
      const signature = await uploadParts(t, user.token, 'signature', [cases[0]], 'en');
      expect(signature.body.message).toBe('The content of the file is not of an accepted type (PNG, JPEG)');
      expect(await fileRows()).toBe(before);
    });

    it('takes one file in the part "file" and nothing else, as multipart only (1172)', async () => {
      const user = await freshUser();
      const before = await fileRows();
      const refusals: Array<readonly [Part[], number]> = [
        [[{ text: 'hello', field: 'note' }], 400],
        [[{ field: 'picture', name: 's.png', bytes: PNG }], 400],
        [
          [
            { text: 'x', field: 'note' },
            { name: 's.png', bytes: PNG },
          ],
          400,
        ],
        [
          [
            { name: 's.png', bytes: PNG },
            { name: 't.png', bytes: PNG },
          ],
          400,
        ],
        [[], 400],
      ];
      for (const [parts, status] of refusals) {
        const answer = await uploadParts(t, user.token, 'signature', parts);
        expect(answer.status, JSON.stringify(parts.map((p) => p.field ?? 'file'))).toBe(status);
        expect(answer.body.code).toBe(ResultCode.UploadMalformed);
      }
      for (const [payload, contentType] of [
        [JSON.stringify({ file: PNG.toString('base64') }), 'application/json'],
        [PNG.toString('latin1'), 'application/octet-stream'],
        [PNG.toString('latin1'), 'image/png'],
      ] as const) {
        const response = await t.call(api.file.upload, {
          query: { kind: 'signature' },
          token: user.token,
          payload,
          contentType,
          lang: 'en',
        });
        expect(response.status, contentType).toBe(415);
        expect(response.body).toMatchObject({
          code: ResultCode.UploadMalformed,
          message: 'Upload one file as multipart/form-data, in a part named file',
        });
      }
      const unknownKind = await uploadParts(t, user.token, 'backup', [{ name: 's.png', bytes: PNG }]);
      expect(unknownKind.status).toBe(400);
      expect(unknownKind.body.data).toEqual([{ path: 'kind', message: expect.any(String) }]);
      expect(await fileRows()).toBe(before);
    });

    it('reads nothing for a caller without a session (401)', async () => {
      const before = await fileRows();
      const answer = await uploadParts(t, null, 'signature', [{ name: 's.png', bytes: PNG }]);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe(ResultCode.Unauthenticated);
      expect(await fileRows()).toBe(before);
    });

    it(`keeps at most ${PENDING_UPLOADS_MAX} unused uploads per user (429), counting per owner`, async () => {
      const user = await freshUser();
      for (let n = 0; n < PENDING_UPLOADS_MAX; n++) await uploadFile(t, user.token, 'signature', PNG);
      const refused = await uploadParts(t, user.token, 'signature', [{ name: 's.png', bytes: PNG }]);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe(ResultCode.UploadsPending);
      const other = await freshUser();
      expect((await uploadParts(t, other.token, 'signature', [{ name: 's.png', bytes: PNG }])).status).toBe(
        200,
      );
    });
  });

  describe('orphan sweep', () => {
    it('removes, after the grace period, uploads never attached and files detached; never attached ones', async () => {
      const user = await freshUser();
      const never = await uploadFile(t, user.token, 'signature', PNG);
      const first = await uploadFile(t, user.token, 'signature', PNG);
      const second = await uploadFile(t, user.token, 'signature', JPEG);
      const name = uniqueName('Swept');
      const created = await post(
        api.staff.saveStaffEx,
        { name, password: 'Tr0ub4dor&Zq', staffType: 1, signatureFileId: first },
        user.token,
      );
      expectOk(created);
      // Replacing the signature detaches the first one.
      expectOk(
        await post(
          api.staff.updateStaffEx,
          { id: created.body.data.id, name, staffType: 1, signatureFileId: second },
          user.token,
        ),
      );
      expect(await rowOf(first)).toMatchObject({ refType: null, detachedAt: expect.any(Date) });
      expect(await rowOf(second)).toMatchObject({ refType: 'staffSignature', refId: created.body.data.id });

      const now = Date.now();
      await t.services.files.sweep(new Date(now));
      for (const id of [never, first, second]) expect(await rowOf(id), id).toBeDefined();

      await t.services.files.sweep(new Date(now + ORPHAN_GRACE_MS + 60_000));
      expect(await rowOf(never)).toBeUndefined();
      expect(await rowOf(first)).toBeUndefined();
      await expect(t.services.files.store.get(never)).rejects.toBeInstanceOf(FileMissingError);
      await expect(t.services.files.store.get(first)).rejects.toBeInstanceOf(FileMissingError);
      expect(await rowOf(second)).toBeDefined();
      expect(await t.services.files.store.get(second)).toEqual(JPEG);
    });

    it('detaches the signature of a deleted staff member, for the sweep', async () => {
      const signatureFileId = await uploadFile(t, await admin(), 'signature', PNG);
      const created = await post(api.staff.saveStaffEx, {
        name: uniqueName('Gone'),
        password: 'Tr0ub4dor&Zq',
        staffType: 1,
        signatureFileId,
      });
      expectOk(created);
      expectOk(await get(api.staff.del, { id: created.body.data.id }));
      expect(await rowOf(signatureFileId)).toMatchObject({ refType: null, refId: null });
    });
  });

  it('moves signatures kept as data URLs in staff rows into the file store, once', async () => {
    const name = uniqueName('Legacy');
    const [legacy] = await t.db
      .insert(staff)
      .values({ name, passwordHash: 'x', signature: `data:image/png;base64,${PNG.toString('base64')}` })
      .returning({ id: staff.id });
    const [broken] = await t.db
      .insert(staff)
      .values({ name: uniqueName('Broken'), passwordHash: 'x', signature: 'data:image/gif;base64,R0lGODlh' })
      .returning({ id: staff.id });
    expect(await moveLegacySignatures(t.db, t.services.files)).toBe(1);
    expect(await moveLegacySignatures(t.db, t.services.files)).toBe(0);
    const [moved] = await t.db.select().from(staff).where(eq(staff.id, legacy!.id));
    expect(moved!.signature).toBeNull();
    const download = await t.app.inject({
      url: urlOf(api.staff.getSignatureById),
      query: { id: legacy!.id },
      headers: { authorization: `Bearer ${await admin()}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(PNG);
    const [kept] = await t.db.select().from(staff).where(eq(staff.id, broken!.id));
    expect(kept!.signature).toBe('data:image/gif;base64,R0lGODlh');
  });

  describe('every file answer of the contract', () => {
    const fileAnswers = ALL_ENDPOINTS.filter((e) => e.fileAnswer);

    it('includes the exports, templates and the signature', () => {
      expect(fileAnswers.map((e) => e.path)).toEqual(
        expect.arrayContaining(
          [api.staff.getSignatureById, api.device.export, api.unit.importTemplate].map((e) => e.path),
        ),
      );
    });

    it.each(fileAnswers.map((e) => [`${e.method} ${e.path}`, e] as const))(
      '%s: no sources, a sandbox and no type guessing, whatever it answers',
      async (_name, endpoint) => {
        const response = await t.app.inject({
          method: endpoint.method,
          url: `/api${endpoint.path}`,
          query: sampleQuery(endpoint),
          headers: { authorization: `Bearer ${await admin()}` },
        });
        expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cache-control']).toBe('no-store');
        if (response.statusCode === 200 && !String(response.headers['content-type']).includes('json')) {
          expect(response.headers['content-disposition']).toMatch(
            /^attachment; filename="[^"]*"; filename\*=UTF-8''/,
          );
        }
      },
    );
  });
});
