import { api, type Endpoint, Permission, ResultCode } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogQueryService } from '../src/modules/admin/log-query.service.ts';
import { loginLog, opLog } from '../src/modules/admin/logs.schema.ts';
import { createTestApp, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';

const BOM = '\uFEFF';
const DAY = 24 * 3600 * 1000;

/** CSV lines of an export without the byte-order mark. */
function csvLines(body: string): string[] {
  expect(body.startsWith(BOM)).toBe(true);
  return body.slice(1).split('\r\n').filter(Boolean);
}

describe.each(databases)('operation and login logs ($kind)', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    const reader = await t.createStaff({
      permissions: [
        Permission.OpLogRead,
        Permission.OpLogExport,
        Permission.LoginLogRead,
        Permission.LoginLogExport,
      ],
    });
    token = await t.signIn(reader.name, reader.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Operation-log rows of one new user at the given times (ISO), oldest given first. */
  const opRows = async (times: string[], extra: Partial<typeof opLog.$inferInsert> = {}) => {
    const userName = uniqueName('Op');
    const rows = await t.db
      .insert(opLog)
      .values(
        times.map((time, i) => ({
          operateTime: new Date(time),
          ipAddr: '10.9.8.7',
          methodArgs: JSON.stringify({ n: i }),
          methodDesc: `Step ${i}`,
          methodName: i % 2 === 0 ? 'org/staff/save' : 'params/update',
          methodType: 'POST',
          url: '/api/x',
          userId: `id-${userName}`,
          userName,
          resultCode: 200,
          ...extra,
        })),
      )
      .returning();
    return { userName: extra.userName ?? userName, rows };
  };

  const loginRows = async (times: string[]) => {
    const userName = uniqueName('Login');
    const rows = await t.db
      .insert(loginLog)
      .values(
        times.map((time, i) => ({
          userId: `id-${userName}`,
          userName,
          loginTime: new Date(time),
          logoutTime: i === 0 ? new Date(Date.parse(time) + 3600_000) : null,
          ipAddr: '10.1.2.3',
        })),
      )
      .returning();
    return { userName, rows };
  };

  const opPage = (query: Record<string, string>, lang = 'en') =>
    t.call(api.logs.queryOpLogPage, { token, query, lang });
  const loginPage = (query: Record<string, string>, lang = 'en') =>
    t.call(api.logs.queryLoginLogPage, { token, query, lang });

  const exportOf = (endpoint: Endpoint, query: Record<string, string>, lang = 'en', app = t) =>
    app.app.inject({
      method: 'GET',
      url: urlOf(endpoint),
      query,
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
    });

  describe('operation log query', () => {
    it('lists newest first, paged, with the total', async () => {
      const { userName } = await opRows([
        '2025-03-01T08:00:00Z',
        '2025-03-03T08:00:00Z',
        '2025-03-02T08:00:00Z',
      ]);
      const first = await opPage({ userName, pageSize: '2' });
      expect(first.status).toBe(200);
      expect(first.body.data.total).toBe(3);
      expect(first.body.data.rows.map((r) => r.operateTime)).toEqual([
        '2025-03-03T08:00:00.000Z',
        '2025-03-02T08:00:00.000Z',
      ]);
      const second = await opPage({ userName, pageSize: '2', pageIndex: '2' });
      expect(second.body.data.rows.map((r) => r.operateTime)).toEqual(['2025-03-01T08:00:00.000Z']);
      expect(second.body.data.rows[0]).toMatchObject({
        ipAddr: '10.9.8.7',
        methodDesc: 'Step 0',
        methodName: 'org/staff/save',
        methodType: 'POST',
        url: '/api/x',
        userName,
        resultCode: 200,
      });
    });

    it('sorts oldest first on request, by time only', async () => {
      const { userName } = await opRows(['2025-04-02T00:00:00Z', '2025-04-01T00:00:00Z']);
      const ascending = await opPage({ userName, sort: 'operateTime', ascending: 'true' });
      expect(ascending.body.data.rows.map((r) => r.operateTime)).toEqual([
        '2025-04-01T00:00:00.000Z',
        '2025-04-02T00:00:00.000Z',
      ]);
      const other = await opPage({ userName, sort: 'methodArgs' });
      expect(other.status).toBe(400);
      expect(other.body.data).toEqual([{ path: 'sort', message: 'Invalid format' }]);
    });

    it('filters by user name and method name (contained, any case, wildcards taken literally)', async () => {
      const { userName } = await opRows([
        '2025-05-01T00:00:00Z',
        '2025-05-02T00:00:00Z',
        '2025-05-03T00:00:00Z',
      ]);
      const part = userName.slice(3).toUpperCase();
      expect((await opPage({ userName: part })).body.data.total).toBe(3);
      const staffSaves = await opPage({ userName, methodName: 'STAFF/SA' });
      expect(staffSaves.body.data.rows.map((r) => r.methodName)).toEqual([
        'org/staff/save',
        'org/staff/save',
      ]);
      expect((await opPage({ userName, methodName: 'staff%save' })).body.data.total).toBe(0);
      expect((await opPage({ userName: `${userName}_` })).body.data.total).toBe(0);
    });

    it('filters by a time range, bounds included, and by one bound alone', async () => {
      const { userName } = await opRows([
        '2025-06-01T00:00:00Z',
        '2025-06-02T00:00:00Z',
        '2025-06-03T00:00:00Z',
        '2025-06-04T00:00:00Z',
      ]);
      const within = await opPage({
        userName,
        startTime: '2025-06-02T00:00:00Z',
        endTime: '2025-06-03T00:00:00Z',
      });
      expect(within.body.data.rows.map((r) => r.operateTime)).toEqual([
        '2025-06-03T00:00:00.000Z',
        '2025-06-02T00:00:00.000Z',
      ]);
      expect((await opPage({ userName, startTime: '2025-06-03T12:00:00Z' })).body.data.total).toBe(1);
      expect((await opPage({ userName, endTime: '2025-06-01T12:00:00Z' })).body.data.total).toBe(1);
      // Searches are not limited to a year.
      const wide = await opPage({
        userName,
        startTime: '2020-01-01T00:00:00Z',
        endTime: '2026-12-31T00:00:00Z',
      });
      expect(wide.body.data.total).toBe(4);
    });

    it('refuses an end that is not later than the start, and a time that is no time (400)', async () => {
      for (const [startTime, endTime] of [
        ['2025-06-03T00:00:00Z', '2025-06-02T00:00:00Z'],
        ['2025-06-03T00:00:00Z', '2025-06-03T00:00:00Z'],
      ] as const) {
        const response = await opPage({ startTime, endTime });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({
          success: false,
          code: ResultCode.InvalidInput,
          data: [{ path: 'endTime', message: 'The end must be later than the start' }],
        });
      }
      const zh = await opPage(
        { startTime: '2025-06-03T00:00:00Z', endTime: '2025-06-01T00:00:00Z' },
        'zh-CN',
      );
      expect(zh.body.data).toEqual([{ path: 'endTime', message: '结束时间须晚于开始时间' }]);
      const bad = await opPage({ startTime: 'yesterday' });
      expect(bad.status).toBe(400);
      expect(bad.body.data).toEqual([{ path: 'startTime', message: 'Invalid format' }]);
    });
  });

  describe('login log query', () => {
    it('lists newest first, filtered by user and time range', async () => {
      const { userName } = await loginRows([
        '2025-07-01T01:00:00Z',
        '2025-07-02T01:00:00Z',
        '2025-07-03T01:00:00Z',
      ]);
      const all = await loginPage({ userName });
      expect(all.status).toBe(200);
      expect(all.body.data.total).toBe(3);
      expect(all.body.data.rows.map((r) => r.loginTime)).toEqual([
        '2025-07-03T01:00:00.000Z',
        '2025-07-02T01:00:00.000Z',
        '2025-07-01T01:00:00.000Z',
      ]);
      expect(all.body.data.rows[2]).toMatchObject({
        userName,
        userId: `id-${userName}`,
        ipAddr: '10.1.2.3',
        logoutTime: '2025-07-01T02:00:00.000Z',
      });
      expect(all.body.data.rows[0]!.logoutTime).toBeNull();
      const ranged = await loginPage({
        userName,
        startTime: '2025-07-02T00:00:00Z',
        endTime: '2025-07-04T00:00:00Z',
      });
      expect(ranged.body.data.total).toBe(2);
      const ascending = await loginPage({ userName, sort: 'loginTime', ascending: 'true', pageSize: '1' });
      expect(ascending.body.data.rows.map((r) => r.loginTime)).toEqual(['2025-07-01T01:00:00.000Z']);
      const refused = await loginPage({ startTime: '2025-07-02T00:00:00Z', endTime: '2025-07-01T00:00:00Z' });
      expect(refused.status).toBe(400);
      expect(refused.body.data).toEqual([
        { path: 'endTime', message: 'The end must be later than the start' },
      ]);
    });

    it('shows the sign-ins the server records', async () => {
      const user = await t.createStaff();
      await t.signIn(user.name, user.password);
      const page = await loginPage({ userName: user.name });
      expect(page.body.data.rows).toHaveLength(1);
      expect(page.body.data.rows[0]).toMatchObject({
        userId: user.id,
        userName: user.name,
        logoutTime: null,
      });
    });
  });

  describe('exports', () => {
    const range = { startTime: '2025-08-01T00:00:00Z', endTime: '2025-09-01T00:00:00Z' };

    it('need a time range of at most a year (400 on the field)', async () => {
      for (const url of [api.logs.exportOpLog, api.logs.exportLoginLog]) {
        const none = await exportOf(url, {});
        expect(none.statusCode).toBe(400);
        expect(none.json()).toMatchObject({
          code: ResultCode.InvalidInput,
          data: [{ path: 'startTime', message: 'Choose a time range' }],
        });
        const half = await exportOf(url, { startTime: range.startTime });
        expect(half.json().data).toEqual([{ path: 'startTime', message: 'Choose a time range' }]);
        const tooLong = await exportOf(url, {
          startTime: '2024-01-01T00:00:00Z',
          endTime: '2025-01-03T00:00:00Z',
        });
        expect(tooLong.statusCode).toBe(400);
        expect(tooLong.json().data).toEqual([
          { path: 'endTime', message: 'The time range must not exceed one year' },
        ]);
        const backwards = await exportOf(
          url,
          { startTime: range.endTime, endTime: range.startTime },
          'zh-TW',
        );
        expect(backwards.json().data).toEqual([{ path: 'endTime', message: '結束時間須晚於開始時間' }]);
        const year = await exportOf(url, {
          startTime: '2024-01-01T00:00:00Z',
          endTime: new Date(Date.parse('2024-01-01T00:00:00Z') + 365 * DAY).toISOString(),
        });
        expect(year.statusCode).toBe(200);
      }
    });

    it('answer the operation log as a CSV file with the header in the request language', async () => {
      const { userName } = await opRows(['2025-08-10T00:00:00Z', '2025-08-11T16:30:05Z']);
      const response = await exportOf(api.logs.exportOpLog, { ...range, userName });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="oplog_20250801-20250901.csv"',
      );
      const lines = csvLines(response.body);
      expect(lines[0]).toBe(
        'ID,Operation time (UTC+8),User name,User ID,IP address,Method type,Method name,Description,URL,Result code,Arguments',
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(
        new RegExp(
          `^\\d+,2025-08-12 00:30:05,${userName},id-${userName},10\\.9\\.8\\.7,POST,params/update,Step 1,/api/x,200,"\\{""n"":1\\}"$`,
        ),
      );
      expect(lines[2]).toContain(',2025-08-10 08:00:00,');

      const zhCN = csvLines((await exportOf(api.logs.exportOpLog, { ...range, userName }, 'zh-CN')).body);
      expect(zhCN[0]).toBe(
        '编号,操作时间（UTC+8）,用户名,用户 ID,IP 地址,请求方式,方法名称,操作描述,请求地址,结果码,参数',
      );
      const zhTW = csvLines((await exportOf(api.logs.exportOpLog, { ...range, userName }, 'zh-TW')).body);
      expect(zhTW[0]).toBe(
        '編號,操作時間（UTC+8）,用戶名稱,用戶 ID,IP 位址,請求方式,方法名稱,操作描述,請求位址,結果碼,參數',
      );
      expect(zhTW.slice(1)).toEqual(lines.slice(1));
    });

    it('keep a cell from running as a formula in a spreadsheet', async () => {
      const userName = `=HYPERLINK("http://x.example","${uniqueName('x')}")`;
      await opRows(['2025-08-15T00:00:00Z'], { userName });
      const lines = csvLines((await exportOf(api.logs.exportOpLog, { ...range, userName })).body);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x.example"",""`);
    });

    it('filter the export by method name', async () => {
      const { userName } = await opRows([
        '2025-08-20T00:00:00Z',
        '2025-08-21T00:00:00Z',
        '2025-08-22T00:00:00Z',
      ]);
      const lines = csvLines(
        (await exportOf(api.logs.exportOpLog, { ...range, userName, methodName: 'params' })).body,
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(',params/update,');
    });

    it('answer the login log as a CSV file', async () => {
      const { userName } = await loginRows(['2025-08-05T10:00:00Z', '2025-08-06T10:00:00Z']);
      const response = await exportOf(api.logs.exportLoginLog, { ...range, userName }, 'zh-CN');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="loginlog_20250801-20250901.csv"',
      );
      const lines = csvLines(response.body);
      expect(lines).toEqual([
        '编号,用户名,用户 ID,登录时间（UTC+8）,登出时间（UTC+8）,IP 地址',
        expect.stringMatching(
          new RegExp(`^\\d+,${userName},id-${userName},2025-08-06 18:00:00,,10\\.1\\.2\\.3$`),
        ),
        expect.stringMatching(
          new RegExp(
            `^\\d+,${userName},id-${userName},2025-08-05 18:00:00,2025-08-05 19:00:00,10\\.1\\.2\\.3$`,
          ),
        ),
      ]);
      const en = csvLines((await exportOf(api.logs.exportLoginLog, { ...range, userName }, 'en')).body);
      expect(en[0]).toBe('ID,User name,User ID,Sign-in time (UTC+8),Sign-out time (UTC+8),IP address');
    });

    it('answer the envelope with 1060 instead of a file beyond the row limit, and the file up to it', async () => {
      const limited = await createTestApp(t.database, { services: { exportMaxRows: 3 } });
      try {
        const { userName } = await opRows([
          '2025-08-01T01:00:00Z',
          '2025-08-01T02:00:00Z',
          '2025-08-01T03:00:00Z',
        ]);
        const atLimit = await exportOf(api.logs.exportOpLog, { ...range, userName }, 'en', limited);
        expect(atLimit.statusCode).toBe(200);
        expect(csvLines(atLimit.body)).toHaveLength(4);

        await opRows(['2025-08-01T04:00:00Z'], { userName });
        const over = await exportOf(api.logs.exportOpLog, { ...range, userName }, 'en', limited);
        expect(over.statusCode).toBe(200);
        expect(over.headers['content-type']).toMatch(/^application\/json/);
        expect(over.headers['content-disposition']).toBeUndefined();
        expect(over.json()).toEqual({
          success: false,
          code: ResultCode.ExportTooLarge,
          data: null,
          message: 'Too much data to export, please narrow the filter',
        });
        // The filter narrows it again.
        const narrowed = await exportOf(
          api.logs.exportOpLog,
          { startTime: '2025-08-01T01:30:00Z', endTime: range.endTime, userName },
          'en',
          limited,
        );
        expect(csvLines(narrowed.body)).toHaveLength(4);

        const logins = await loginRows([
          '2025-08-02T00:00:00Z',
          '2025-08-03T00:00:00Z',
          '2025-08-04T00:00:00Z',
          '2025-08-05T00:00:00Z',
        ]);
        const loginsOver = await exportOf(
          api.logs.exportLoginLog,
          { ...range, userName: logins.userName },
          'zh-CN',
          limited,
        );
        expect(loginsOver.json()).toMatchObject({ success: false, code: ResultCode.ExportTooLarge });
        expect(loginsOver.json().message).toBe('导出数据过多，请缩小筛选范围');
        // The same rows export with the default limit.
        expect(
          csvLines((await exportOf(api.logs.exportLoginLog, { ...range, userName: logins.userName })).body),
        ).toHaveLength(5);
      } finally {
        await limited.closeApp();
      }
    });

    it('stream every row once, newest first, across batches of rows with equal and close times', async () => {
      const { userName } = await opRows([
        '2025-08-25T00:00:00.000Z',
        '2025-08-25T00:00:00.000Z',
        '2025-08-25T00:00:00.000Z',
        '2025-08-24T00:00:00.000Z',
        '2025-08-26T00:00:00.000Z',
      ]);
      // Times a millisecond apart only in their microseconds, which a JS Date would lose.
      await t.db.execute(
        sql`insert into op_log (operate_time, method_desc, method_name, method_type, url, user_name)
            values ('2025-08-25 00:00:00.000400+00', 'micro', 'm', 'POST', '/api/x', ${userName}),
                   ('2025-08-25 00:00:00.000300+00', 'micro', 'm', 'POST', '/api/x', ${userName})`,
      );
      const service = new LogQueryService(t.db, { exportBatchSize: 2 });
      const csv = await service.exportOpLog({ ...range, userName }, 'en');
      let body = '';
      for await (const chunk of csv.content) body += chunk;
      const lines = csvLines(body).slice(1);
      expect(lines).toHaveLength(7);
      const ids = lines.map((l) => Number(l.split(',')[0]));
      expect(new Set(ids).size).toBe(7);
      const times = lines.map((l) => l.split(',')[1]);
      expect(times).toEqual([
        '2025-08-26 08:00:00',
        '2025-08-25 08:00:00',
        '2025-08-25 08:00:00',
        '2025-08-25 08:00:00',
        '2025-08-25 08:00:00',
        '2025-08-25 08:00:00',
        '2025-08-24 08:00:00',
      ]);
      expect(lines.slice(1, 3).every((l) => l.includes(',micro,'))).toBe(true);
    });
  });

  it('needs the log keys (403 without them)', async () => {
    const plain = await t.createStaff({ permissions: [Permission.StaffRead] });
    const plainToken = await t.signIn(plain.name, plain.password);
    for (const url of [
      api.logs.queryOpLogPage,
      api.logs.exportOpLog,
      api.logs.queryLoginLogPage,
      api.logs.exportLoginLog,
    ]) {
      const response = await t.call(url, { token: plainToken });
      expect([response.status, response.body.code], url.path).toEqual([403, ResultCode.Forbidden]);
    }
    const exporter = await t.createStaff({ permissions: [Permission.OpLogExport] });
    const exporterToken = await t.signIn(exporter.name, exporter.password);
    expect((await t.call(api.logs.queryOpLogPage, { token: exporterToken })).status).toBe(403);
  });
});
