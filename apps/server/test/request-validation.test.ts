import { api, type Endpoint, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, orgHelpers } from './support/org.ts';

/**
 * What a request's fields are refused with, through the API: a 400 with one translated message per field
 * and rule, naming the bound or the years (findings: a 5-digit year answered HTTP 500; pageIndex=0 said
 * "enter a number"; an age of 1e20 was told twice; objectType "Staff" was "required").
 */
describe.each(databases)('refused request fields ($kind)', (kind) => {
  let t: TestApp;
  const { admin } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const issuesOf = (response: { status: number; body: { code: number; data: unknown } }) => {
    expect(response.status).toBe(400);
    expectCode(response as never, ResultCode.InvalidInput);
    return response.body.data as Array<{ path: string; message: string }>;
  };
  const query = async (endpoint: Endpoint, params: Record<string, string>, lang = 'en') =>
    t.call(endpoint, { query: params as never, token: await admin(), lang });
  const body = async (endpoint: Endpoint, payload: unknown, lang = 'en') =>
    t.call(endpoint, { payload, token: await admin(), lang });

  it('refuses a time with a 5-digit year on every search and export, in each language', async () => {
    const range = { startTime: '99999-01-01', endTime: '99999-02-01' };
    for (const endpoint of [
      api.logs.queryOpLogPage,
      api.logs.queryLoginLogPage,
      api.logs.exportOpLog,
      api.deviceAlarm.queryPage,
      api.deviceHistory.queryPage,
      api.operationRecord.queryPage,
      api.deviceCommand.queryPage,
    ]) {
      const issues = issuesOf(await query(endpoint, { pageIndex: '1', pageSize: '5', ...range }));
      expect(issues, endpoint.path).toEqual([
        { path: 'startTime', message: 'The time must be between the years 1970 and 9999' },
        { path: 'endTime', message: 'The time must be between the years 1970 and 9999' },
      ]);
    }
    const zhTw = issuesOf(
      await query(api.logs.queryOpLogPage, { endTime: '+010000-01-01T00:00:00Z' }, 'zh-TW'),
    );
    expect(zhTw).toEqual([{ path: 'endTime', message: '時間須在 1970 年到 9999 年之間' }]);
    const ok = await query(api.logs.queryOpLogPage, { startTime: '2024-01-01', endTime: '9999-12-31' });
    expect(ok.status).toBe(200);
  });

  it('names the bound a number crossed, once per field', async () => {
    expect(issuesOf(await query(api.logs.queryOpLogPage, { pageIndex: '0' }, 'zh-CN'))).toEqual([
      { path: 'pageIndex', message: '不能小于 1' },
    ]);
    const dept = { name: 'Too far', deptType: 'Electric', idxNo: 2_000_000_001 };
    expect(issuesOf(await body(api.department.save, dept))).toEqual([
      { path: 'idxNo', message: 'Must be at most 2000000000' },
    ]);
    const person = { name: 'age.test', staffType: 1, password: 'Harbour-Light-47', age: 1e20 };
    expect(issuesOf(await body(api.staff.save, person))).toEqual([
      { path: 'age', message: 'Must be at most 150' },
    ]);
  });

  it('calls a value outside the choices invalid, not missing', async () => {
    const grant = {
      objectType: 'Staff',
      objectId: 'someone',
      forever: true,
      deviceIds: ['d1'],
    };
    const issues = issuesOf(await body(api.fixedAuthorization.save, grant, 'zh-CN'));
    expect(issues).toContainEqual({ path: 'objectType', message: '格式不正确' });
    expect(issues.map((i) => i.message)).not.toContain('此项为必填项');
  });
});
