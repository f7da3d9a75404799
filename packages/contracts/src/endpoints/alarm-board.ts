import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { ALARM_SEVERITIES } from '../validation/alarm-forms.ts';
import { requiredText } from '../validation/formats.ts';
import { brokerLogin } from './realtime.ts';

/**
 * The control-room board (`/warningRecord`, docs/alarms.md "The control-room board"): an administrator
 * makes a display link for one station; opening it exchanges a one-time code for a display session that
 * reads the station's open alarms and nothing else.
 */

/** The console's path of the board; a link's address is this with `?code=`. */
export const ALARM_BOARD_PATH = '/warningRecord';
/** How long a one-time code may wait before it is exchanged. */
export const ALARM_BOARD_CODE_TTL_HOURS = 24;
/** Most open alarms the board shows (the newest). */
export const ALARM_BOARD_MAX_ROWS = 200;

const id = z.string().min(1).max(64);

export const ALARM_BOARD_LINK_STATES = ['active', 'revoked'] as const;
export type AlarmBoardLinkState = (typeof ALARM_BOARD_LINK_STATES)[number];

/** A display link as the administration lists it. */
export const alarmBoardLinkRow = z.object({
  id: z.string(),
  name: z.string(),
  stationId: z.string(),
  stationName: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(ALARM_BOARD_LINK_STATES),
  revokedAt: z.string().nullable(),
  /** Until when the code last issued may still be exchanged; null when it was used or has expired. */
  codeExpiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type AlarmBoardLinkRow = z.infer<typeof alarmBoardLinkRow>;

export const alarmBoardLinkForm = z.object({
  name: requiredText('v.required', 64),
  stationId: requiredText('v.required', 64),
});
export type AlarmBoardLinkForm = z.infer<typeof alarmBoardLinkForm>;

/** A new one-time code, shown once: the board's path with the code, and when the code expires. */
export const alarmBoardCode = z.object({
  id: z.string(),
  path: z.string(),
  expiresAt: z.string(),
});
export type AlarmBoardCode = z.infer<typeof alarmBoardCode>;

export const queryAlarmBoardLinkPage = defineEndpoint({
  method: 'GET',
  path: '/alarmBoard/queryPage',
  access: Permission.AlarmBoardManage,
  module: 'alarms',
  summary: 'Display links of the control-room board, newest first, with their last use',
  query: pageQuery.extend({ state: z.enum(ALARM_BOARD_LINK_STATES).optional() }),
  response: pageResult(alarmBoardLinkRow),
});

export const getAlarmBoardStations = defineEndpoint({
  method: 'GET',
  path: '/alarmBoard/stations',
  access: Permission.AlarmBoardManage,
  module: 'alarms',
  summary: 'The stations a display link may show',
  response: z.array(z.object({ id: z.string(), name: z.string() })),
});

export const saveAlarmBoardLink = defineEndpoint({
  method: 'POST',
  path: '/alarmBoard/save',
  access: Permission.AlarmBoardManage,
  module: 'alarms',
  summary: 'Create a display link for a station; answers its first one-time code (shown once)',
  body: alarmBoardLinkForm,
  response: alarmBoardCode,
});

export const newAlarmBoardCode = defineEndpoint({
  method: 'POST',
  path: '/alarmBoard/newCode',
  access: Permission.AlarmBoardManage,
  module: 'alarms',
  summary: 'Issue a fresh one-time code for a display link (the previous unused code stops working)',
  query: z.object({ id }),
  response: alarmBoardCode,
});

export const revokeAlarmBoardLink = defineEndpoint({
  method: 'POST',
  path: '/alarmBoard/revoke',
  access: Permission.AlarmBoardManage,
  module: 'alarms',
  summary: 'Revoke a display link: its code and display sessions end at once, live data included',
  query: z.object({ id }),
  response: z.null(),
});

/** What a display session is for. */
export const alarmBoardSession = z.object({
  token: z.string(),
  name: z.string(),
  stationId: z.string(),
  stationName: z.string(),
});
export type AlarmBoardSession = z.infer<typeof alarmBoardSession>;

export const exchangeAlarmBoardCode = defineEndpoint({
  method: 'POST',
  path: '/alarmBoard/exchange',
  access: 'public',
  module: 'alarms',
  summary: "Exchange a display link's one-time code for a read-only display session of its station",
  body: z.object({
    code: z.string().trim().min(1, { error: 'v.required' }).max(128, { error: 'v.tooLong' }),
  }),
  response: alarmBoardSession,
  secretFields: ['code'],
});

/** An open alarm as the board shows it. */
export const alarmBoardRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  content: z.string(),
  severity: z.enum(ALARM_SEVERITIES),
  warnTime: z.string(),
  ackTime: z.string().nullable(),
});
export type AlarmBoardRow = z.infer<typeof alarmBoardRow>;

export const alarmBoard = z.object({
  name: z.string(),
  stationId: z.string(),
  stationName: z.string(),
  rows: z.array(alarmBoardRow),
});
export type AlarmBoard = z.infer<typeof alarmBoard>;

export const getAlarmBoard = defineEndpoint({
  method: 'GET',
  path: '/alarmBoard/openAlarms',
  access: 'alarmBoard',
  module: 'alarms',
  summary: "The open alarms (state Warn) of the display session's station, newest first",
  response: alarmBoard,
});

export const getAlarmBoardBrokerLogin = defineEndpoint({
  method: 'GET',
  path: '/alarmBoard/brokerLogin',
  access: 'alarmBoard',
  module: 'alarms',
  summary: "The display session's broker sign-in: it reads its station's alarm topic and nothing else",
  response: brokerLogin,
});
