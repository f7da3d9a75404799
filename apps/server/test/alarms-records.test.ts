import { api, Permission, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import { createTestApp, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectOk } from './support/org.ts';

const BOM = '\uFEFF';
const DAY = 24 * 3600 * 1000;

/** CSV lines of an export without the byte-order mark. */
function csvLines(body: string): string[] {
  expect(body.startsWith(BOM)).toBe(true);
  return body.slice(1).split('\r\n').filter(Boolean);
}

/** A day far from the other suites' alarms: 2031-05-10, 10:00 in the console's time (UTC+8). */
const NOW = Date.parse('2031-05-10T02:00:00Z');

/**
 * Alarm records beyond the page (spec §2 /data-statistics/warning-message, §5, §7 `/fp/getTodayWarn`): the
 * CSV export of a time range of at most a year, and today's alarms for Home. Alarms are written straight
 * into `device_alarm`, as the runner leaves them.
 */
describe.each(databases)('alarm records ($kind)', (kind) => {
  let t: TestApp;
  let token: string;
  let exportless: string;

  beforeAll(async () => {
    t = await openTestApp(kind, { services: { alarmClock: () => NOW } });
    const reader = await t.createStaff({ permissions: [Permission.AlarmRead, Permission.AlarmExport] });
    token = await t.signIn(reader.name, reader.password);
    const readOnly = await t.createStaff({ permissions: [Permission.AlarmRead] });
    exportless = await t.signIn(readOnly.name, readOnly.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const newDevice = async (name = uniqueName('Door')) => {
    const typeId = await insertDeviceTypeRow(t.db);
    const unitId = await insertUnitRow(t.db);
    const id = await insertDeviceRow(t.db, { unitId, typeId, name, code: uniqueName('C'), regist: true });
    return { id, name };
  };

  const insertAlarm = async (
    deviceId: string,
    warnTime: string,
    values: Partial<typeof deviceAlarm.$inferInsert> = {},
  ) => {
    const [row] = await t.db
      .insert(deviceAlarm)
      .values({
        stationId: DEFAULT_STATION.id,
        ruleName: 'Door left open',
        deviceId,
        content: `Door open at ${warnTime}`,
        severity: 'major',
        state: 'Warn',
        warnTime: new Date(warnTime),
        sendCount: 1,
        ...values,
      })
      .returning({ id: deviceAlarm.id });
    return row!.id;
  };

  const exportOf = (query: Record<string, string>, lang = 'en', as = token, app = t) =>
    app.app.inject({
      method: 'GET',
      url: urlOf(api.deviceAlarm.export),
      query,
      headers: { authorization: `Bearer ${as}`, 'accept-language': lang },
    });

  describe('export', () => {
    const range = { startTime: '2025-08-01T00:00:00Z', endTime: '2025-09-01T00:00:00Z' };

    it('needs a time range of at most a year, and the export key', async () => {
      const none = await exportOf({});
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({
        code: ResultCode.InvalidInput,
        data: [{ path: 'startTime', message: 'Choose a time range' }],
      });
      const tooLong = await exportOf({ startTime: '2024-01-01T00:00:00Z', endTime: '2025-01-03T00:00:00Z' });
      expect(tooLong.json().data).toEqual([
        { path: 'endTime', message: 'The time range must not exceed one year' },
      ]);
      const year = await exportOf({
        startTime: '2024-01-01T00:00:00Z',
        endTime: new Date(Date.parse('2024-01-01T00:00:00Z') + 365 * DAY).toISOString(),
      });
      expect(year.statusCode).toBe(200);
      const refused = await exportOf(range, 'en', exportless);
      expect(refused.json()).toMatchObject({ success: false, code: ResultCode.Forbidden });
    });

    it('answers the range newest first as CSV in the request language, filtered like the page', async () => {
      const door = await newDevice();
      const other = await newDevice();
      await insertAlarm(door.id, '2025-08-10T00:00:00Z', {
        state: 'Reset',
        resetTime: new Date('2025-08-10T01:00:00Z'),
        resetStaffName: 'Lee',
      });
      await insertAlarm(door.id, '2025-08-11T16:30:05Z', {
        severity: 'critical',
        ackTime: new Date('2025-08-11T16:31:00Z'),
        ackStaffName: 'Chan',
      });
      await insertAlarm(door.id, '2025-09-02T00:00:00Z');
      await insertAlarm(other.id, '2025-08-12T00:00:00Z');

      const response = await exportOf({ ...range, deviceName: door.name });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="warning-message_20250801-20250901.csv"',
      );
      const lines = csvLines(response.body);
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe(
        'Warn time (UTC+8),Content,Device name,Device code,Rule,Severity,State,Reset time (UTC+8),Reset by,' +
          'Acknowledged at (UTC+8),Acknowledged by,Times notified',
      );
      expect(lines[1]).toMatch(
        new RegExp(
          `^2025-08-12 00:30:05,Door open at 2025-08-11T16:30:05Z,${door.name},C-?[^,]*,Door left open,Critical,Warn,,,2025-08-12 00:31:00,Chan,1$`,
        ),
      );
      expect(lines[2]).toContain(',Major,Reset,2025-08-10 09:00:00,Lee,,,1');

      const zhCN = csvLines(
        (await exportOf({ ...range, deviceName: door.name, state: 'Reset' }, 'zh-CN')).body,
      );
      expect(zhCN).toHaveLength(2);
      expect(zhCN[0]).toMatch(/^告警时间（UTC\+8）,告警内容,设备名称/);
      expect(zhCN[1]).toContain(',重要,已复位,');
    });

    it('answers 1060 instead of a file beyond the row limit', async () => {
      const limited = await createTestApp(t.database, {
        services: { exportMaxRows: 2, alarmClock: () => NOW },
      });
      try {
        const door = await newDevice();
        await insertAlarm(door.id, '2025-08-01T01:00:00Z');
        await insertAlarm(door.id, '2025-08-01T02:00:00Z');
        const atLimit = await exportOf({ ...range, deviceName: door.name }, 'en', token, limited);
        expect(csvLines(atLimit.body)).toHaveLength(3);
        await insertAlarm(door.id, '2025-08-01T03:00:00Z');
        const over = await exportOf({ ...range, deviceName: door.name }, 'en', token, limited);
        expect(over.headers['content-disposition']).toBeUndefined();
        expect(over.json()).toMatchObject({ success: false, code: ResultCode.ExportTooLarge });
      } finally {
        await limited.closeApp();
      }
    });
  });

  describe("today's alarms", () => {
    it('lists the alarms raised since the day began, newest first, at most the limit', async () => {
      const door = await newDevice();
      await insertAlarm(door.id, '2031-05-09T15:59:59Z');
      const first = await insertAlarm(door.id, '2031-05-09T16:00:00Z', { state: 'Normal' });
      const second = await insertAlarm(door.id, '2031-05-10T01:00:00Z');
      const third = await insertAlarm(door.id, '2031-05-10T01:59:00Z', { severity: 'minor' });

      const all = await t.call(api.home.getTodayWarn, { token, query: {} });
      expectOk(all);
      expect(all.body.data.total).toBe(3);
      expect(all.body.data.rows.map((r) => r.id)).toEqual([third, second, first]);
      expect(all.body.data.rows[0]).toMatchObject({
        deviceName: door.name,
        severity: 'minor',
        state: 'Warn',
      });

      const two = await t.call(api.home.getTodayWarn, { token, query: { limit: 2 } });
      expect(two.body.data.total).toBe(3);
      expect(two.body.data.rows.map((r) => r.id)).toEqual([third, second]);

      expectCode(
        await t.call(api.home.getTodayWarn, { token, query: { limit: 500 } }),
        ResultCode.InvalidInput,
      );
    });

    it('is refused without the alarm read key', async () => {
      const nobody = await t.createStaff({ permissions: [] });
      const response = await t.call(api.home.getTodayWarn, {
        token: await t.signIn(nobody.name, nobody.password),
        query: {},
      });
      expectCode(response, ResultCode.Forbidden);
    });
  });
});
