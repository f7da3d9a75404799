/**
 * The console's live channels (ARCHITECTURE §5, spec §7 Realtime, §9 constants).
 *
 * - MQTT over WebSocket: the server publishes processed events to `/UIOT/{stationId}/{kind}`; the console
 *   subscribes to `/UIOT/{stationId}/#` at QoS 0 with its staff id as username and its session token as
 *   password. Each message is one JSON `ConsoleEvent` carrying the changes of a moment, in order. The broker
 *   hands a session only the kinds its permissions read (`CONSOLE_EVENT_PERMISSIONS`).
 * - `/websocket`: per-user notifications. The first message is `{"type":"auth","token":"…"}`; the text
 *   'heartCheck' is answered with 'heartCheck'. A notification reaches a session only while it holds the
 *   permission of its kind (`USER_NOTIFICATION_PERMISSIONS`).
 *
 * Raw device payloads, secrets and PIN codes never travel on either.
 */
import { z } from 'zod';
import { COMMAND_STATES } from './endpoints/commands.ts';
import { operationRecordRow } from './endpoints/operation-records.ts';
import { Permission, type PermissionKey } from './permissions.ts';
import { ALARM_SEVERITIES, ALARM_STATES } from './validation/alarm-forms.ts';
import { OPEN_STATES, RUN_STATES } from './validation/device-forms.ts';

/**
 * The kinds of console topics and the permission that reads each, declared together: a kind exists only
 * with its permission. A session receives a kind while it holds the key, as the API serves the same data
 * only to holders of it (`/api/runtime/queryPage` needs `monitor.read`, the command records
 * `deviceCommand.read`). A module that publishes a new kind (alarms, operation records) adds it here with
 * its key; the brokers deliver no kind that is not listed.
 */
export const CONSOLE_EVENT_PERMISSIONS = {
  runtime: Permission.MonitorRead,
  command: Permission.DeviceCommandRead,
  alarm: Permission.AlarmRead,
  operation: Permission.OperationRecordRead,
} as const satisfies Record<string, PermissionKey>;
export type ConsoleEventKind = keyof typeof CONSOLE_EVENT_PERMISSIONS;
export const CONSOLE_EVENT_KINDS = Object.keys(CONSOLE_EVENT_PERMISSIONS) as readonly ConsoleEventKind[];

/** The kinds of console topics a holder of these permission keys may receive, in declaration order. */
export function readableConsoleKinds(permissions: ReadonlySet<string>): ConsoleEventKind[] {
  return CONSOLE_EVENT_KINDS.filter((kind) => permissions.has(CONSOLE_EVENT_PERMISSIONS[kind]));
}

/** The topic a kind of event of a station is published to. */
export function consoleEventTopic(stationId: string, kind: ConsoleEventKind): string {
  return `/UIOT/${stationId}/${kind}`;
}

/** What the console subscribes to: every console topic of its station. */
export function consoleSubscription(stationId: string): string {
  return `/UIOT/${stationId}/#`;
}

/**
 * What a processed report changed in a device's runtime data. Absent fields did not change; `online` and
 * `lastCollectTime` always come. A device going offline comes with `online: false` and no message id.
 */
export const runtimeChange = z.object({
  deviceId: z.string(),
  /** Id of the report that caused it (null for a change the server made, e.g. going offline). */
  messageId: z.string().nullable(),
  /** Absent in a change that tells a run state only (one the server worked out with no report). */
  online: z.boolean().optional(),
  lastCollectTime: z.string().nullable().optional(),
  /** With `online: false`: when the device went offline (its last message plus its type's allowance). */
  offlineSince: z.string().nullable().optional(),
  /** When the device says it sent that report (its own clock), if it said. */
  reportTime: z.string().nullable().optional(),
  lockState: z.enum(OPEN_STATES).optional(),
  doorState: z.enum(OPEN_STATES).optional(),
  battery: z.number().optional(),
  rssi: z.number().optional(),
  runState: z.enum(RUN_STATES).optional(),
});
export type RuntimeChange = z.infer<typeof runtimeChange>;

/** A device command's new delivery state. */
export const commandChange = z.object({
  id: z.string(),
  deviceId: z.string(),
  cmdCode: z.string(),
  name: z.string(),
  state: z.enum(COMMAND_STATES),
  attempts: z.number().int(),
  sendFlag: z.boolean(),
  updateTime: z.string(),
});
export type CommandChange = z.infer<typeof commandChange>;

/** A device alarm raised, reminded, acknowledged, cleared by itself or reset: its record as it now stands. */
export const alarmChange = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  ruleName: z.string(),
  content: z.string(),
  severity: z.enum(ALARM_SEVERITIES),
  state: z.enum(ALARM_STATES),
  warnTime: z.string(),
  resetTime: z.string().nullable(),
  ackTime: z.string().nullable(),
  sendCount: z.number().int(),
});
export type AlarmChange = z.infer<typeof alarmChange>;

/** An operation record made or moved on (a remote open answered, a record uploaded): as it now stands. */
export const operationChange = operationRecordRow;
export type OperationChange = z.infer<typeof operationChange>;

/**
 * Whether `later` may stand in for `earlier`, two states of one operation record: a record only moves from
 * 'sent' to its final result, so a 'sent' state that arrives after a final one (two paths announcing the same
 * record, one of them with a stale copy) is older news and is kept out.
 */
export function operationChangeSupersedes(
  earlier: Pick<OperationChange, 'result'>,
  later: Pick<OperationChange, 'result'>,
): boolean {
  return !(later.result === 'sent' && earlier.result !== 'sent');
}

/** One message on a console topic. */
export const consoleEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('runtime'), changes: z.array(runtimeChange) }),
  z.object({ kind: z.literal('command'), changes: z.array(commandChange) }),
  z.object({ kind: z.literal('alarm'), changes: z.array(alarmChange) }),
  z.object({ kind: z.literal('operation'), changes: z.array(operationChange) }),
]);
export type ConsoleEvent = z.infer<typeof consoleEvent>;

/** `/websocket`: path, heartbeat text and the first message a client sends. */
export const NOTIFICATION_SOCKET_PATH = '/websocket';
export const HEART_CHECK = 'heartCheck';
export const socketAuthMessage = z.object({ type: z.literal('auth'), token: z.string().min(1).max(256) });
export type SocketAuthMessage = z.infer<typeof socketAuthMessage>;

/** A per-user notification: a device command the user sent has ended. */
export const commandFinishedNotification = z.object({
  kind: z.literal('commandFinished'),
  commandId: z.string(),
  deviceId: z.string(),
  deviceName: z.string().nullable(),
  name: z.string(),
  state: z.enum(COMMAND_STATES),
  /** Why the last send failed, when it did (a result code and its parameters, translated by the reader). */
  failure: z
    .object({ code: z.number().int(), params: z.record(z.string(), z.union([z.string(), z.number()])) })
    .nullable(),
});
export const userNotification = z.discriminatedUnion('kind', [commandFinishedNotification]);
export type UserNotification = z.infer<typeof userNotification>;

/**
 * The permission a session needs to receive each kind of notification, by the rule of the console topics:
 * a finished command is command data (`deviceCommand.read`).
 */
export const USER_NOTIFICATION_PERMISSIONS = {
  commandFinished: Permission.DeviceCommandRead,
} as const satisfies Record<UserNotification['kind'], PermissionKey>;

/** Whether a holder of these permission keys may receive this notification. */
export function mayReceiveNotification(
  permissions: ReadonlySet<string>,
  notification: Pick<UserNotification, 'kind'>,
): boolean {
  const needed: PermissionKey | undefined = USER_NOTIFICATION_PERMISSIONS[notification.kind];
  return needed !== undefined && permissions.has(needed);
}

/** What the server sends on `/websocket` (besides the 'heartCheck' answer). */
export const socketServerMessage = z.discriminatedUnion('type', [
  /** The token was accepted. */
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('notification'), time: z.string(), notification: userNotification }),
]);
export type SocketServerMessage = z.infer<typeof socketServerMessage>;

/** Timing of the console's live channels (spec §4 Realtime, §9; the shipped settings). */
export const REALTIME_TIMING = {
  mqttKeepaliveSeconds: 30,
  mqttReconnectMs: 5_000,
  mqttConnectTimeoutMs: 10_000,
  mqttSubscribeTimeoutMs: 10_000,
  mqttResubscribeMs: 3_000,
  socketHeartbeatMs: 15_000,
  socketReconnectMs: 5_000,
  /** The server closes a `/websocket` connection that has not authenticated within this time. */
  socketAuthTimeoutMs: 5_000,
} as const;
