import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import {
  ALARM_SEVERITIES,
  ALARM_STATES,
  NOTICE_CHANNELS,
  NOTICE_OCCASIONS,
  NOTICE_STATES,
  PROP_ORIGINS,
} from '../validation/alarm-forms.ts';
import { searchTime } from '../validation/formats.ts';

const id = z.string().min(1).max(64);

/** A device alarm (spec §3 Device alarm), with its device and, beyond the spec, severity and acknowledgement. */
export const deviceAlarmRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  deviceCode: z.string().nullable(),
  ruleId: z.string().nullable(),
  ruleName: z.string(),
  content: z.string(),
  severity: z.enum(ALARM_SEVERITIES),
  propOrigin: z.enum(PROP_ORIGINS).nullable(),
  propName: z.string().nullable(),
  state: z.enum(ALARM_STATES),
  canReset: z.boolean(),
  warnTime: z.string(),
  resetTime: z.string().nullable(),
  resetStaffName: z.string().nullable(),
  ackTime: z.string().nullable(),
  ackStaffName: z.string().nullable(),
  /**
   * How many times its recipients were told: the raising and each reminder count once a notification of
   * theirs was delivered; 0 when none was (no recipients, no channel, not delivered yet or failed).
   */
  sendCount: z.number().int(),
});
export type DeviceAlarmRow = z.infer<typeof deviceAlarmRow>;

/** Alarm search: a warn-time range, the state, severity and device. */
export const deviceAlarmSearch = z.object({
  startTime: searchTime,
  endTime: searchTime,
  state: z.enum(ALARM_STATES).optional(),
  severity: z.enum(ALARM_SEVERITIES).optional(),
  deviceId: id.optional(),
  deviceName: z.string().trim().max(64).optional(),
});

export const queryDeviceAlarmPage = defineEndpoint({
  method: 'GET',
  path: '/deviceAlarm/queryPage',
  access: Permission.AlarmRead,
  module: 'alarms',
  summary: 'Device alarms, newest first, paged and searchable',
  query: pageQuery.extend(deviceAlarmSearch.shape),
  response: pageResult(deviceAlarmRow),
});

/** Exports answer CSV (UTF-8 with BOM) rather than the envelope; the time range is required, at most a year. */
export const exportDeviceAlarms = defineEndpoint({
  method: 'GET',
  path: '/deviceAlarm/export',
  access: Permission.AlarmExport,
  module: 'alarms',
  summary: 'Device alarms of a time range (at most a year) as CSV, newest first',
  query: deviceAlarmSearch,
  response: z.string(),
  fileAnswer: true,
  mutating: false,
});

/** Most alarms Home lists for today. */
export const TODAY_WARN_MAX = 50;

/** Today's alarms for Home (spec §7 `/fp/getTodayWarn`): how many were raised today, and the newest. */
export const todayWarn = z.object({
  total: z.number().int(),
  rows: z.array(deviceAlarmRow),
});
export type TodayWarn = z.infer<typeof todayWarn>;

export const getTodayWarn = defineEndpoint({
  method: 'GET',
  path: '/fp/getTodayWarn',
  access: Permission.AlarmRead,
  module: 'alarms',
  summary: "Today's alarms (console day, UTC+8), newest first, at most `limit`",
  query: z.object({ limit: z.coerce.number().int().min(1).max(TODAY_WARN_MAX).default(10) }),
  response: todayWarn,
});

export const getOpenAlarmCount = defineEndpoint({
  method: 'GET',
  path: '/deviceAlarm/openCount',
  access: Permission.AlarmRead,
  module: 'alarms',
  summary: 'How many alarms are open (state Warn), for the navbar bell',
  response: z.object({ open: z.number().int() }),
});

export const resetDeviceAlarm = defineEndpoint({
  method: 'POST',
  path: '/deviceAlarm/reset',
  access: Permission.AlarmReset,
  module: 'alarms',
  summary: 'Reset an open alarm by hand (state Reset, with the time and who); only where canReset',
  query: z.object({ id }),
  response: z.null(),
});

export const acknowledgeDeviceAlarm = defineEndpoint({
  method: 'POST',
  path: '/deviceAlarm/acknowledge',
  access: Permission.AlarmAck,
  module: 'alarms',
  summary: 'Acknowledge an open alarm: it stays open until reset, its reminders stop',
  query: z.object({ id }),
  response: z.null(),
});

/** One delivery attempt of a notification. */
export const alarmNoticeAttemptRow = z.object({
  attempt: z.number().int(),
  at: z.string(),
  ok: z.boolean(),
  /** The HTTP status or SMTP answer, or what went wrong. */
  detail: z.string(),
});

/** A notification of an alarm to one staff member on one channel, with its attempts. */
export const alarmNoticeRow = z.object({
  id: z.string(),
  occasion: z.enum(NOTICE_OCCASIONS),
  channel: z.enum(NOTICE_CHANNELS),
  staffName: z.string(),
  address: z.string(),
  state: z.enum(NOTICE_STATES),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(alarmNoticeAttemptRow),
});
export type AlarmNoticeRow = z.infer<typeof alarmNoticeRow>;

/** Most notifications listed for one alarm (the newest). */
export const ALARM_NOTICES_MAX = 200;

export const queryAlarmNotices = defineEndpoint({
  method: 'GET',
  path: '/deviceAlarm/notices',
  access: Permission.AlarmRead,
  module: 'alarms',
  summary: 'The notifications of an alarm (e-mail, SMS, app push) with each delivery attempt, newest first',
  query: z.object({ id }),
  response: z.array(alarmNoticeRow),
});
