import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { ALARM_SEVERITIES, ALARM_STATES, PROP_ORIGINS } from '../validation/alarm-forms.ts';

const id = z.string().min(1).max(64);
const isoTime = z.string().max(40).optional();

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
  /** How many times its recipients were told (the first time and each reminder). */
  sendCount: z.number().int(),
});
export type DeviceAlarmRow = z.infer<typeof deviceAlarmRow>;

/** Alarm search: a warn-time range, the state, severity and device. */
export const deviceAlarmSearch = z.object({
  startTime: isoTime,
  endTime: isoTime,
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
