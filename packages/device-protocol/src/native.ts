/**
 * Native MQTT JSON of the locks (topics `dev/{stationId}/{code}/up|down|ack`).
 *
 * up (a report):      {"id":"m-000123","ts":1763750000000,"event":"heartbeat","lock":"closed","door":"closed",
 *                      "battery":87,"rssi":-71,"run":"normal","props":{"temp":21.5,"tamper":false}}
 * ack (a result):     {"id":"a-77","cmd":"<command id>","result":"success"|"failure","detail":"jammed","ts":…}
 * down (a command):   {"id":"<uuid>","cmd":"open","params":{…},"expire":1763750060000}
 *
 * Only `id` (and `cmd` / `result` of an ack, `cmd` of a command) is required. Unknown top-level keys are
 * ignored so a newer firmware can add fields; a `null` optional field counts as absent (device-side JSON
 * codecs write null for "no value"). The same field readers serve TcpDirect frames and ChirpStack's decoded
 * `object`.
 */

import {
  checkMessageId,
  checkNumberRange,
  checkOneOf,
  checkTimestamp,
  type JsonObject,
  parseJsonObject,
  readProps,
} from './json-input.ts';
import { MAX_DETAIL_LENGTH, MAX_NATIVE_PAYLOAD_BYTES } from './limits.ts';
import {
  type CommandResult,
  type Decoded,
  type DeviceCommand,
  type DeviceReport,
  decoded,
  REPORT_EVENTS,
  RUN_STATES,
  refused,
} from './message.ts';

const LOCK_STATES = ['open', 'closed'] as const;
const RESULT_WORDS = ['success', 'failure'] as const;
const COMMAND_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/;

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Reads the report fields of a native-like object (everything but `id`) into `report`. Returns a detail
 * naming the first bad field, or undefined.
 */
export function readReportFields(src: JsonObject, report: DeviceReport): string | undefined {
  const { ts, event, lock, door, battery, rssi, run, props } = src;
  let error: string | undefined;
  if (present(ts)) {
    error = checkTimestamp('ts', ts);
    if (error) return error;
    report.reportedAt = ts as number;
  }
  if (present(event)) {
    error = checkOneOf('event', event, REPORT_EVENTS);
    if (error) return error;
    report.event = event as DeviceReport['event'];
  }
  if (present(lock)) {
    error = checkOneOf('lock', lock, LOCK_STATES);
    if (error) return error;
    report.lock = lock as DeviceReport['lock'];
  }
  if (present(door)) {
    error = checkOneOf('door', door, LOCK_STATES);
    if (error) return error;
    report.door = door as DeviceReport['door'];
  }
  if (present(battery)) {
    error = checkNumberRange('battery', battery, 0, 100);
    if (error) return error;
    report.battery = battery as number;
  }
  if (present(rssi)) {
    error = checkNumberRange('rssi', rssi, -200, 0);
    if (error) return error;
    report.rssi = rssi as number;
  }
  if (present(run)) {
    error = checkOneOf('run', run, RUN_STATES);
    if (error) return error;
    report.runState = run as DeviceReport['runState'];
  }
  if (present(props)) {
    const read = readProps('props', props);
    if ('error' in read) return read.error;
    report.props = read.props;
  }
  return undefined;
}

/** A native report object (`id` plus the report fields) → DeviceReport. */
export function readNativeReport(src: JsonObject): Decoded<DeviceReport> {
  const error = checkMessageId('id', src.id);
  if (error) return refused('invalid', error);
  const report: DeviceReport = { kind: 'report', messageId: src.id as string };
  const fieldError = readReportFields(src, report);
  if (fieldError) return refused('invalid', fieldError);
  return decoded(report);
}

/** A native ack object → CommandResult (outcome Success / Failure). */
export function readNativeResult(src: JsonObject): Decoded<CommandResult> {
  const { id, cmd, result, detail, ts } = src;
  const error =
    checkMessageId('id', id) ?? checkMessageId('cmd', cmd) ?? checkOneOf('result', result, RESULT_WORDS);
  if (error) return refused('invalid', error);
  const value: CommandResult = {
    kind: 'commandResult',
    messageId: id as string,
    commandId: cmd as string,
    outcome: result === 'success' ? 'Success' : 'Failure',
  };
  if (present(detail)) {
    if (typeof detail !== 'string') return refused('invalid', 'detail: must be a string');
    if (detail.length > MAX_DETAIL_LENGTH) {
      return refused('invalid', `detail: longer than ${MAX_DETAIL_LENGTH} characters`);
    }
    value.detail = detail;
  }
  if (present(ts)) {
    const tsError = checkTimestamp('ts', ts);
    if (tsError) return refused('invalid', tsError);
    value.reportedAt = ts as number;
  }
  return decoded(value);
}

/** A native command object → DeviceCommand. */
export function readNativeCommand(src: JsonObject): Decoded<DeviceCommand> {
  const { id, cmd, params, expire } = src;
  const error = checkMessageId('id', id);
  if (error) return refused('invalid', error);
  if (typeof cmd !== 'string' || !COMMAND_CODE.test(cmd)) {
    return refused('invalid', 'cmd: must be a command code (a letter, then up to 31 of A-Z a-z 0-9 _ . -)');
  }
  const command: DeviceCommand = { id: id as string, cmd };
  if (present(params)) {
    const read = readProps('params', params);
    if ('error' in read) return refused('invalid', read.error);
    command.params = read.props;
  }
  if (present(expire)) {
    const expireError = checkTimestamp('expire', expire);
    if (expireError) return refused('invalid', expireError);
    command.expireAt = expire as number;
  }
  return decoded(command);
}

function decodeObject<T>(payload: Uint8Array | string, read: (src: JsonObject) => Decoded<T>): Decoded<T> {
  const parsed = parseJsonObject(payload, MAX_NATIVE_PAYLOAD_BYTES);
  return parsed.ok ? read(parsed.value) : parsed;
}

export function decodeNativeReport(payload: Uint8Array | string): Decoded<DeviceReport> {
  return decodeObject(payload, readNativeReport);
}

export function decodeNativeResult(payload: Uint8Array | string): Decoded<CommandResult> {
  return decodeObject(payload, readNativeResult);
}

export function decodeNativeCommand(payload: Uint8Array | string): Decoded<DeviceCommand> {
  return decodeObject(payload, readNativeCommand);
}

/** The JSON object of a report, keys in the documented order, absent fields left out. */
export function nativeReportObject(report: Omit<DeviceReport, 'kind'>): JsonObject {
  const out: JsonObject = { id: report.messageId };
  if (report.reportedAt !== undefined) out.ts = report.reportedAt;
  if (report.event !== undefined) out.event = report.event;
  if (report.lock !== undefined) out.lock = report.lock;
  if (report.door !== undefined) out.door = report.door;
  if (report.battery !== undefined) out.battery = report.battery;
  if (report.rssi !== undefined) out.rssi = report.rssi;
  if (report.runState !== undefined) out.run = report.runState;
  if (report.props !== undefined) out.props = report.props;
  return out;
}

export function nativeResultObject(result: Omit<CommandResult, 'kind'>): JsonObject {
  if (result.outcome !== 'Success' && result.outcome !== 'Failure') {
    throw new RangeError(`a lock reports Success or Failure, not ${result.outcome}`);
  }
  const out: JsonObject = {
    id: result.messageId,
    cmd: result.commandId,
    result: result.outcome === 'Success' ? 'success' : 'failure',
  };
  if (result.detail !== undefined) out.detail = result.detail;
  if (result.reportedAt !== undefined) out.ts = result.reportedAt;
  return out;
}

export function nativeCommandObject(command: DeviceCommand): JsonObject {
  const out: JsonObject = { id: command.id, cmd: command.cmd };
  if (command.params !== undefined) out.params = command.params;
  if (command.expireAt !== undefined) out.expire = command.expireAt;
  return out;
}

export function encodeNativeReport(report: Omit<DeviceReport, 'kind'>): string {
  return JSON.stringify(nativeReportObject(report));
}

/** Throws a RangeError for an outcome other than Success / Failure (the NB_* states are the platforms'). */
export function encodeNativeResult(result: Omit<CommandResult, 'kind'>): string {
  return JSON.stringify(nativeResultObject(result));
}

export function encodeNativeCommand(command: DeviceCommand): string {
  return JSON.stringify(nativeCommandObject(command));
}
