// Uploads through the console (spec §7: uploads are multipart; ARCHITECTURE §2: one file store): the
// import dialog sends a filled-in template to the file store and imports it by its id, listing the errors
// of a refused file; the staff dialog uploads a signature as soon as it is chosen, saves it with the staff
// member, and shows it again from the server. A file whose content is not an image is refused by the
// server whatever its name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, resultMessages } from '@uiot/contracts';
import ExcelJS from 'exceljs';
import type { Page, Request } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import zhTransfer from '../apps/web/src/locales/zh-CN/transfer.json' with { type: 'json' };
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  apiResponse,
  fill,
  pathOf,
  screenshot,
  shown,
  signIn,
  storedToken,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
/** A real 1×1 PNG image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const files = mkdtempSync(path.join(tmpdir(), 'uiot-e2e-uploads-'));

const { app, browser } = useConsoleSuite();

afterAll(() => rmSync(files, { recursive: true, force: true }));

/** Writes a file the browser's file chooser is given. */
function fileOf(name: string, bytes: Buffer): string {
  const file = path.join(files, name);
  writeFileSync(file, bytes);
  return file;
}

/** The operation-unit template, downloaded with the page's session, with rows written by column key. */
async function unitWorkbook(page: Page, rows: Array<Record<string, string>>): Promise<Buffer> {
  const template = await fetch(`${app.apiUrl}${pathOf(api.unit.importTemplate)}`, {
    headers: { Authorization: `Bearer ${await storedToken(page)}` },
  });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await template.arrayBuffer()) as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const keys: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => {
    keys[col - 1] = String(cell.note ?? '');
  });
  rows.forEach((row, i) => {
    sheet.getRow(i + 2).values = keys.map((key) => row[key] ?? null);
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The upload request the next action makes, with what the browser sent. */
function nextUpload(page: Page): Promise<Request> {
  return page.waitForRequest((request) => new URL(request.url()).pathname === pathOf(api.file.upload));
}

/** The type of body a request carried (Chromium does not hand over the bytes of a file it sends). */
function contentTypeOf(request: Request): string {
  return request.headers()['content-type'] ?? '';
}

describe('uploads', () => {
  it('imports operation units from a filled-in template sent as a file, and lists the errors of a bad one', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/device/unit');
    await page.getByTestId('units-page').waitFor();
    await page.getByTestId('units-toolbar-import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.waitFor();
    const chooser = dialog.locator('input[type="file"]');

    // A file with an error: nothing is written, the row and column are listed.
    const bad = await unitWorkbook(page, [{ name: 'E2E 导入单元甲' }, { name: '', menuName: '无名' }]);
    await chooser.setInputFiles(fileOf('单元-有误.xlsx', bad));
    const badUpload = nextUpload(page);
    const refused = apiResponse(page, api.unit.import);
    await page.getByTestId('import-submit').click();
    expect(contentTypeOf(await badUpload)).toMatch(/^multipart\/form-data; boundary=/);
    expect(((await (await refused).json()) as { code: number }).code).toBe(1140);
    const errors = page.getByTestId('import-errors');
    await errors.waitFor();
    expect(await shown(errors)).toContain('3');
    expect(await shown(page.getByTestId('import-result'))).toContain(zhTransfer.nothingWritten);
    await screenshot(page, 'uploads-import-refused-zh-CN');

    // A good file: every row is written.
    const good = await unitWorkbook(page, [{ name: 'E2E 导入单元甲' }, { name: 'E2E 导入单元乙' }]);
    await chooser.setInputFiles(fileOf('单元.xlsx', good));
    const goodUpload = nextUpload(page);
    const imported = apiResponse(page, api.unit.import);
    await page.getByTestId('import-submit').click();
    const uploadAnswer = await (await goodUpload).response();
    expect(
      ((await uploadAnswer!.json()) as { data: { kind: string; contentType: string } }).data,
    ).toMatchObject({
      kind: 'import',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(((await (await imported).json()) as { data: unknown }).data).toEqual({ imported: 2 });
    await expect
      .poll(() => shown(page.getByTestId('import-result')))
      .toContain(fill(zhTransfer.imported, { count: '2' }));
    await page.getByTestId('import-close').click();
    await tableRow(page, 'units-table', 'E2E 导入单元乙').waitFor();
  });

  it('uploads a staff signature when chosen, saves it with the staff member and shows it from the server', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/sys/staff');
    await page.getByTestId('staff-page').waitFor();
    await page.getByTestId('staff-create').click();
    const dialog = page.getByTestId('staff-dialog');
    await dialog.waitFor();
    await page.getByTestId('staff-name').fill('e2e.signature');
    await page.getByTestId('staff-password').fill('Kx9#mPq2vL');
    const chooser = page.getByTestId('staff-signature').locator('input[type="file"]');

    // Named .png, but text: the server reads the content and refuses it.
    const fakeUpload = apiResponse(page, api.file.upload);
    await chooser.setInputFiles(fileOf('fake.png', Buffer.from('not an image at all')));
    expect((await fakeUpload).status()).toBe(415);
    const typesText = resultMessages.FileTypeRefused['zh-CN'].replace('{types}', 'PNG, JPEG');
    await toast(page, fill(zh.common.outcome.upload.failure, { error: typesText })).waitFor();
    expect(await page.getByTestId('staff-signature-preview').count()).toBe(0);

    const upload = nextUpload(page);
    await chooser.setInputFiles(fileOf('签名.png', PNG));
    expect(contentTypeOf(await upload)).toMatch(/^multipart\/form-data; boundary=/);
    const stored = (await (await (await upload).response())!.json()) as {
      data: { id: string; name: string; contentType: string };
    };
    expect(stored.data).toMatchObject({ name: '签名.png', contentType: 'image/png' });
    const preview = page.getByTestId('staff-signature-preview').locator('img');
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);

    const saved = apiResponse(page, api.staff.saveStaffEx);
    await page.getByTestId('staff-dialog-submit').click();
    const save = await saved;
    expect(JSON.parse(save.request().postData() ?? '{}')).toMatchObject({ signatureFileId: stored.data.id });
    expect(((await save.json()) as { success: boolean }).success).toBe(true);

    // Edited again: the stored signature comes from the server, as a file, shown from memory.
    const row = tableRow(page, 'staff-table', 'e2e.signature');
    await row.waitFor();
    const fetched = apiResponse(page, api.staff.getSignatureById);
    await row.getByTestId('staff-row-edit').click();
    const download = await fetched;
    expect(download.headers()).toMatchObject({
      'content-type': 'image/png',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
    const again = page.getByTestId('staff-signature-preview').locator('img');
    await again.waitFor();
    expect(await again.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => again.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await screenshot(page, 'uploads-staff-signature-zh-CN');
  });
});
