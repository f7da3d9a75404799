import net from 'node:net';
import {
  ALL_ENDPOINTS,
  ALL_PERMISSIONS,
  api,
  type Endpoint,
  FEATURE_FLAGS,
  type FieldIssue,
  type ImportError,
  ResultCode,
} from '@uiot/contracts';
import { count } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { device, operationUnit } from '../src/modules/devices/devices.schema.ts';
import { boardDisplayToken } from './support/alarm-board.ts';
import { openTestApp, type TestApp, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { uploadFile } from './support/files.ts';
import { sampleBody, sampleQuery } from './support/sample-input.ts';

const NUL = '\u0000';
const NB_SECRET = 'nul-test-callback-secret';
const NUL_MESSAGE = {
  'zh-CN': '不能包含空字符（U+0000）',
  en: 'Must not contain the NUL character (U+0000)',
  'zh-TW': '不能包含空字元（U+0000）',
} as const;

/** Every path (`a.b.0`) of a string holding NUL in a value, in document order. */
function nulPathsOf(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes(NUL) ? [path] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => nulPathsOf(item, path ? `${path}.${key}` : key));
}

/** An xlsx file whose cells hold these texts; `{NUL}` is written as Excel writes U+0000 (`_x0000_`). */
async function workbookWith(template: Buffer, rows: Array<Record<string, string>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const keys: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => {
    keys[col - 1] = String(cell.note ?? '');
  });
  // A placeholder as long as `_x0000_`, replaced in the stored (uncompressed) archive.
  const placeholder = 'QZQZQZQ';
  rows.forEach((row, i) => {
    sheet.getRow(i + 2).values = keys.map((key) => row[key]?.replaceAll('{NUL}', placeholder) ?? null);
  });
  const bytes = Buffer.from(await workbook.xlsx.writeBuffer({ zip: { compression: 'STORE' } } as never));
  for (let at = bytes.indexOf(placeholder); at >= 0; at = bytes.indexOf(placeholder, at)) {
    bytes.write('_x0000_', at, 'latin1');
  }
  return bytes;
}

/** One request over a socket of its own, as written; the raw answer. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

describe.each(databases)('finding 3: NUL characters in input ($kind)', (kind) => {
  let t: TestApp;
  let token: string;
  /** A display session of the control-room board, for its endpoints. */
  let displayToken: string;

  beforeAll(async () => {
    t = await openTestApp(kind, {
      nbCallbackSecrets: { ChinaTelecom: NB_SECRET, ChinaUnicom: NB_SECRET, ChinaMobile: NB_SECRET },
    });
    // Every feature switched on, so that every endpoint reads its input rather than answering 1104.
    for (const flag of FEATURE_FLAGS) if (flag.valType === 'boolean') await t.setParam(flag.name, 'true');
    const user = await t.createStaff({ permissions: ALL_PERMISSIONS });
    token = await t.signIn(user.name, user.password);
    displayToken = await boardDisplayToken(t, token);
  });
  afterAll(async () => {
    await t?.close();
  });

  const opLogRows = async () => (await t.db.select({ n: count() }).from(opLog))[0]!.n;

  describe('in every string of every endpoint of the contract', () => {
    const endpoints = ALL_ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const);
    const text = (sample: string) => `${sample}${NUL}x`;

    it.each(endpoints)('%s: 400 naming each field, never 500', async (_name, endpoint: Endpoint) => {
      const rowsBefore = await opLogRows();
      // Every declared string, and a stray parameter no schema reads: NUL is refused wherever it is.
      const query = { ...sampleQuery(endpoint, { allProperties: true, text }), stray: `a${NUL}b` };
      const body =
        endpoint.method === 'POST'
          ? (sampleBody(endpoint, { allProperties: true, arrayItem: true, text }) ?? {})
          : undefined;
      const response = await t.app.inject({
        method: endpoint.method,
        url: `/api${endpoint.path}`,
        query,
        headers: {
          authorization: `Bearer ${endpoint.access === 'alarmBoard' ? displayToken : token}`,
          'x-callback-token': NB_SECRET,
          'accept-language': 'en',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      expect(response.statusCode).toBe(400);
      const answer = response.json<{ code: number; data: FieldIssue[] }>();
      expect(answer.code).toBe(ResultCode.InvalidInput);
      const expected = [...nulPathsOf(query), ...nulPathsOf(body)].slice(0, 20);
      expect(answer.data.map((issue) => issue.path)).toEqual(expected);
      for (const issue of answer.data) expect(issue.message).toBe(NUL_MESSAGE.en);
      // Refused before its handler: no operation-log row either.
      expect(await opLogRows()).toBe(rowsBefore);
    });
  });

  describe('as the probe sent it', () => {
    it.each([
      ['zh-CN', NUL_MESSAGE['zh-CN']],
      ['en', NUL_MESSAGE.en],
      ['zh-TW', NUL_MESSAGE['zh-TW']],
    ] as const)('GET /api/params/getById?id=a%%00b: 400 in %s', async (lang, message) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/params/getById?id=a%00b',
        headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: ResultCode.InvalidInput,
        data: [{ path: 'id', message }],
      });
    });

    /** Creates a unit with a body written as JSON text. */
    const saveUnit = (json: string) =>
      t.call(api.unit.save, {
        token,
        payload: json,
        contentType: 'application/json',
        lang: 'en',
      });

    it('POST /api/unit/save with \\u0000 in the name, escaped in the JSON text: 400, nothing saved', async () => {
      const units = async () => (await t.db.select({ n: count() }).from(operationUnit))[0]!.n;
      const before = await units();
      const response = await saveUnit('{"name":"Unit\\u0000A","sortIndex":0}');
      expect(response.status).toBe(400);
      expect(response.body.data).toEqual([{ path: 'name', message: NUL_MESSAGE.en }]);
      expect(await units()).toBe(before);
    });

    it('in an object key: 400 naming the key', async () => {
      const response = await saveUnit('{"name":"Unit B","extra":{"k\\u0000":1}}');
      expect(response.status).toBe(400);
      expect(response.body.data).toEqual([{ path: 'extra.k\\u0000', message: NUL_MESSAGE.en }]);
    });
  });

  describe('in an uploaded xlsx file', () => {
    const template = async (endpoint: Endpoint, query: Record<string, string> = {}) => {
      const response = await t.app.inject({
        method: 'GET',
        url: urlOf(endpoint),
        query,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      });
      expect(response.statusCode).toBe(200);
      return response.rawPayload;
    };

    it('refuses the file with the cells named, before any value is looked up, and imports nothing', async () => {
      const devices = async () => (await t.db.select({ n: count() }).from(device))[0]!.n;
      const before = await devices();
      const file = await workbookWith(await template(api.device.importTemplate, { kind: 'device' }), [
        { name: 'Lock{NUL}1', unitPath: 'Somewhere', typeCode: 'T{NUL}1' },
        { name: 'Lock 2', unitPath: 'Somewhere', typeCode: 'T1' },
      ]);
      const response = await t.call(api.device.import, {
        token,
        body: { kind: 'device', fileId: await uploadFile(t, token, 'import', file) },
        lang: 'en',
      });
      expect(response.status).toBe(200);
      expect(response.body.code).toBe(ResultCode.ImportInvalid);
      expect(response.body.data).toEqual([
        { row: 2, column: 'Name', message: NUL_MESSAGE.en },
        { row: 2, column: 'Device type code', message: NUL_MESSAGE.en },
      ]);
      expect(await devices()).toBe(before);
    });

    it('refuses a unit file the same way', async () => {
      const file = await workbookWith(await template(api.unit.importTemplate), [{ name: 'Unit{NUL}' }]);
      const response = await t.call(api.unit.import, {
        token,
        body: { fileId: await uploadFile(t, token, 'import', file) },
      });
      expect(response.body.code).toBe(ResultCode.ImportInvalid);
      const errors = response.body.data as unknown as ImportError[];
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ row: 2, message: NUL_MESSAGE['zh-CN'] });
    });
  });

  describe('in headers', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    it.each([
      ['X-Forwarded-For', 'X-Forwarded-For: 10.0.0.1\u0000x'],
      ['X-Station-Id', 'X-Station-Id: S\u00001'],
      ['User-Agent', 'User-Agent: probe\u0000'],
      ['Accept-Language', 'Accept-Language: en\u0000'],
    ])('a NUL in %s is refused by the HTTP parser with the 400 envelope', async (_name, header) => {
      const answer = await rawRequest(
        port,
        `POST /api/staff/loginCheck HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${header}\r\n\r\n{}`,
      );
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(body)).toMatchObject({ success: false, code: ResultCode.MalformedRequest });
    });
  });
});
