/**
 * The lock's compact binary payload, used where every byte costs airtime: LoRaWAN (fPort 10, through
 * ChirpStack) and NB-IoT (through the carriers' platforms).
 *
 * Layout, version 1. Multi-byte integers are big-endian (network order).
 *
 *   offset size  field
 *   0      1     version: 0x01
 *   1      1     type: 0x01 report (uplink), 0x02 command result (uplink), 0x81 command (downlink)
 *
 *   Report (type 0x01), 6 bytes, 8 with seq, then extension properties:
 *   2      1     flags: bit 0 = a seq follows the battery byte; bits 1..7 reserved, 0
 *   3      1     event: 0 none, 1 heartbeat, 2 boot, 3 lockChanged, 4 doorChanged, 5 damage,
 *                6 lowBattery, 7 status, 8 pinUsed, 9 pinLockout
 *   4      1     state: bits 0-1 lock, bits 2-3 door (0 unknown, 1 closed, 2 open),
 *                bits 4-6 run state (0 unknown, 1 normal, 2 damaged, 3 lowPower, 4 timeOutNotClosed),
 *                bit 7 reserved, 0
 *   5      1     battery: 0..100 %, 0xFF unknown
 *   6      2     seq: message counter 0..65535 (only when flags bit 0 is set)
 *   …      …     extension properties to the end of the payload, each entry:
 *                  type (1) · key length (1, 1..64) · key (ASCII A-Z a-z 0-9 _ . -) · value
 *                  type 0x01 int32 (4 bytes, signed)    type 0x02 float64 (8 bytes, IEEE 754)
 *                  type 0x03 false (no value bytes)     type 0x04 true (no value bytes)
 *                  type 0x05 string: length (1) · UTF-8 bytes
 *                at most 32 entries, keys unique.
 *
 *   Command result (type 0x02), 5 bytes, 6 with an error code:
 *   2      2     seq of the command answered
 *   4      1     outcome: 0 success, 1 failure
 *   5      1     error code 0..255 (optional: present when the payload is 6 bytes long)
 *
 *   Command (type 0x81), 5 bytes, then parameters:
 *   2      2     seq: chosen by the server, echoed by the lock in its result
 *   4      1     command code: 0x01 open, 0x02 close, 0x03 setParam, 0x04 setPassword,
 *                0x05 deletePassword, 0x06 queryStatus, 0x07 syncTime, 0x08 reboot, 0x09 deletePin,
 *                0x0A setPin
 *   …      …     parameters: entries as the extension properties, numeric types (0x01, 0x02) only
 *
 * A payload is at most 242 bytes (the LoRaWAN application payload at the fastest data rates).
 */

import { isPropKey } from './json-input.ts';
import { MAX_LOCK_PAYLOAD_BYTES, MAX_PROP_KEY_LENGTH, MAX_PROPS } from './limits.ts';
import {
  type Decoded,
  type DeviceReport,
  decoded,
  type ExtensionProps,
  REPORT_EVENTS,
  RUN_STATES,
  type RunState,
  refused,
} from './message.ts';

/** LoRaWAN application port of the lock payload. */
export const LOCK_FPORT = 10;
export const LOCK_PAYLOAD_VERSION = 1;

export type LockReport = Omit<DeviceReport, 'kind' | 'messageId' | 'rssi' | 'reportedAt'>;

export type LockPayload =
  | { type: 'report'; seq?: number; report: LockReport }
  | { type: 'result'; seq: number; outcome: 'Success' | 'Failure'; errorCode?: number };

export type LockCommand = { seq: number; cmd: string; params: Record<string, number> };

/** Command codes of the payload (spec §3 cmdCode → byte). */
export const LOCK_COMMAND_CODES: Readonly<Record<string, number>> = Object.freeze({
  open: 0x01,
  close: 0x02,
  setParam: 0x03,
  setPassword: 0x04,
  deletePassword: 0x05,
  queryStatus: 0x06,
  syncTime: 0x07,
  reboot: 0x08,
  deletePin: 0x09,
  setPin: 0x0a,
});

const COMMAND_NAMES = new Map<number, string>(
  Object.entries(LOCK_COMMAND_CODES).map(([name, code]) => [code, name]),
);

const TYPE_REPORT = 0x01;
const TYPE_RESULT = 0x02;
const TYPE_COMMAND = 0x81;

const FLAG_SEQ = 0x01;
const BATTERY_UNKNOWN = 0xff;

const ENTRY_INT32 = 0x01;
const ENTRY_FLOAT64 = 0x02;
const ENTRY_FALSE = 0x03;
const ENTRY_TRUE = 0x04;
const ENTRY_STRING = 0x05;

// Index + 1 is the wire code; 0 means absent.
const LOCK_CODES = ['closed', 'open'] as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

class ByteWriter {
  private readonly bytes = new Uint8Array(MAX_LOCK_PAYLOAD_BYTES);
  private readonly view = new DataView(this.bytes.buffer);
  private length = 0;

  private reserve(size: number): number {
    const at = this.length;
    if (at + size > MAX_LOCK_PAYLOAD_BYTES) {
      throw new RangeError(`lock payload would exceed ${MAX_LOCK_PAYLOAD_BYTES} bytes`);
    }
    this.length += size;
    return at;
  }

  u8(value: number): void {
    this.bytes[this.reserve(1)] = value;
  }

  u16(value: number): void {
    this.view.setUint16(this.reserve(2), value);
  }

  i32(value: number): void {
    this.view.setInt32(this.reserve(4), value);
  }

  f64(value: number): void {
    this.view.setFloat64(this.reserve(8), value);
  }

  raw(data: Uint8Array): void {
    this.bytes.set(data, this.reserve(data.length));
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

function checkSeq(seq: number): void {
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xffff)
    throw new RangeError(`seq must be 0..65535, not ${seq}`);
}

function writeEntries(writer: ByteWriter, entries: Record<string, unknown>, numericOnly: boolean): void {
  const keys = Object.keys(entries);
  if (keys.length > MAX_PROPS) throw new RangeError(`at most ${MAX_PROPS} entries`);
  for (const key of keys) {
    if (!isPropKey(key))
      throw new RangeError(`entry key ${JSON.stringify(key)} is not 1..64 of A-Z a-z 0-9 _ . -`);
    const value = entries[key];
    let type: number;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new RangeError(`${key}: not a finite number`);
      type =
        Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff ? ENTRY_INT32 : ENTRY_FLOAT64;
    } else if (!numericOnly && typeof value === 'boolean') {
      type = value ? ENTRY_TRUE : ENTRY_FALSE;
    } else if (!numericOnly && typeof value === 'string') {
      type = ENTRY_STRING;
    } else {
      throw new RangeError(
        `${key}: ${numericOnly ? 'a number' : 'a number, a boolean or a string'} expected`,
      );
    }
    writer.u8(type);
    writer.u8(key.length);
    for (let i = 0; i < key.length; i++) writer.u8(key.charCodeAt(i));
    if (type === ENTRY_INT32) writer.i32(value as number);
    else if (type === ENTRY_FLOAT64) writer.f64(value as number);
    else if (type === ENTRY_STRING) {
      const text = utf8Encoder.encode(value as string);
      if (text.length > 0xff) throw new RangeError(`${key}: string over 255 UTF-8 bytes`);
      writer.u8(text.length);
      writer.raw(text);
    }
  }
}

function enumCode(field: string, value: string | undefined, table: readonly string[]): number {
  if (value === undefined) return 0;
  const index = table.indexOf(value);
  if (index < 0) throw new RangeError(`${field}: unknown value ${JSON.stringify(value)}`);
  return index + 1;
}

/**
 * A report as the lock sends it. Battery is carried in whole percent (rounded). Throws a RangeError for a
 * value the layout cannot carry or a payload over MAX_LOCK_PAYLOAD_BYTES.
 */
export function encodeLockReport(report: LockReport, seq?: number): Uint8Array {
  const writer = new ByteWriter();
  writer.u8(LOCK_PAYLOAD_VERSION);
  writer.u8(TYPE_REPORT);
  writer.u8(seq === undefined ? 0 : FLAG_SEQ);
  writer.u8(enumCode('event', report.event, REPORT_EVENTS));
  const lock = enumCode('lock', report.lock, LOCK_CODES);
  const door = enumCode('door', report.door, LOCK_CODES);
  const run = enumCode('runState', report.runState, RUN_STATES);
  writer.u8(lock | (door << 2) | (run << 4));
  if (report.battery === undefined) writer.u8(BATTERY_UNKNOWN);
  else {
    if (!(report.battery >= 0 && report.battery <= 100)) throw new RangeError('battery must be 0..100');
    writer.u8(Math.round(report.battery));
  }
  if (seq !== undefined) {
    checkSeq(seq);
    writer.u16(seq);
  }
  if (report.props !== undefined) writeEntries(writer, report.props, false);
  return writer.done();
}

export function encodeLockResult(
  seq: number,
  outcome: 'Success' | 'Failure',
  errorCode?: number,
): Uint8Array {
  checkSeq(seq);
  if (outcome !== 'Success' && outcome !== 'Failure') throw new RangeError(`outcome ${outcome}`);
  const writer = new ByteWriter();
  writer.u8(LOCK_PAYLOAD_VERSION);
  writer.u8(TYPE_RESULT);
  writer.u16(seq);
  writer.u8(outcome === 'Success' ? 0 : 1);
  if (errorCode !== undefined) {
    if (!Number.isInteger(errorCode) || errorCode < 0 || errorCode > 0xff) {
      throw new RangeError('errorCode must be 0..255');
    }
    writer.u8(errorCode);
  }
  return writer.done();
}

/** Throws a RangeError for a command the lock has no code for (LOCK_COMMAND_CODES) or a non-numeric param. */
export function encodeLockCommand(command: {
  seq: number;
  cmd: string;
  params?: Record<string, number>;
}): Uint8Array {
  checkSeq(command.seq);
  if (!Object.hasOwn(LOCK_COMMAND_CODES, command.cmd)) {
    throw new RangeError(`no lock command code for ${JSON.stringify(command.cmd)}`);
  }
  const writer = new ByteWriter();
  writer.u8(LOCK_PAYLOAD_VERSION);
  writer.u8(TYPE_COMMAND);
  writer.u16(command.seq);
  writer.u8(LOCK_COMMAND_CODES[command.cmd] as number);
  if (command.params !== undefined) writeEntries(writer, command.params, true);
  return writer.done();
}

type EntriesRead = { entries: ExtensionProps } | { reason: 'malformed' | 'invalid'; detail: string };

function readEntries(bytes: Uint8Array, view: DataView, start: number, numericOnly: boolean): EntriesRead {
  const entries: ExtensionProps = {};
  let count = 0;
  let at = start;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) return { reason: 'malformed', detail: `entry at byte ${at}: truncated` };
    const type = bytes[at] as number;
    const keyLength = bytes[at + 1] as number;
    at += 2;
    if (keyLength === 0 || keyLength > MAX_PROP_KEY_LENGTH) {
      return { reason: 'invalid', detail: `entry at byte ${at - 2}: key length ${keyLength}` };
    }
    if (at + keyLength > bytes.length)
      return { reason: 'malformed', detail: `entry at byte ${at - 2}: truncated` };
    const key = String.fromCharCode(...bytes.subarray(at, at + keyLength));
    at += keyLength;
    if (!isPropKey(key)) return { reason: 'invalid', detail: `entry key ${JSON.stringify(key)}` };
    if (Object.hasOwn(entries, key)) return { reason: 'invalid', detail: `entry ${key}: repeated` };
    if (++count > MAX_PROPS) return { reason: 'invalid', detail: `more than ${MAX_PROPS} entries` };
    if (numericOnly && type !== ENTRY_INT32 && type !== ENTRY_FLOAT64) {
      return { reason: 'invalid', detail: `entry ${key}: type ${type} is not numeric` };
    }
    let size: number;
    switch (type) {
      case ENTRY_INT32:
        size = 4;
        break;
      case ENTRY_FLOAT64:
        size = 8;
        break;
      case ENTRY_FALSE:
      case ENTRY_TRUE:
        size = 0;
        break;
      case ENTRY_STRING:
        if (at + 1 > bytes.length) return { reason: 'malformed', detail: `entry ${key}: truncated` };
        size = 1 + (bytes[at] as number);
        break;
      default:
        return { reason: 'invalid', detail: `entry ${key}: unknown type ${type}` };
    }
    if (at + size > bytes.length) return { reason: 'malformed', detail: `entry ${key}: truncated` };
    if (type === ENTRY_INT32) entries[key] = view.getInt32(at);
    else if (type === ENTRY_FLOAT64) {
      const value = view.getFloat64(at);
      if (!Number.isFinite(value)) return { reason: 'invalid', detail: `entry ${key}: not a finite number` };
      entries[key] = value;
    } else if (type === ENTRY_STRING) {
      try {
        entries[key] = utf8.decode(bytes.subarray(at + 1, at + size));
      } catch {
        return { reason: 'invalid', detail: `entry ${key}: not UTF-8` };
      }
    } else entries[key] = type === ENTRY_TRUE;
    at += size;
  }
  return { entries };
}

function checkHeader(bytes: Uint8Array): Decoded<number> {
  if (!(bytes instanceof Uint8Array)) return refused('malformed', 'payload is not bytes');
  if (bytes.length > MAX_LOCK_PAYLOAD_BYTES)
    return refused('oversized', `payload over ${MAX_LOCK_PAYLOAD_BYTES} bytes`);
  if (bytes.length < 2) return refused('malformed', 'payload truncated: no header');
  if (bytes[0] !== LOCK_PAYLOAD_VERSION) return refused('unsupported', `payload version ${bytes[0]}`);
  return decoded(bytes[1] as number);
}

function decodeReport(bytes: Uint8Array, view: DataView): Decoded<LockPayload> {
  if (bytes.length < 6) return refused('malformed', 'report truncated');
  const flags = bytes[2] as number;
  const event = bytes[3] as number;
  const state = bytes[4] as number;
  const battery = bytes[5] as number;
  if (flags & ~FLAG_SEQ) return refused('invalid', `report flags 0x${flags.toString(16)}: reserved bits set`);
  if (event > REPORT_EVENTS.length) return refused('invalid', `event code ${event}`);
  const lock = state & 0x03;
  const door = (state >> 2) & 0x03;
  const run = (state >> 4) & 0x07;
  if (state & 0x80) return refused('invalid', 'state: reserved bit 7 set');
  if (lock > LOCK_CODES.length) return refused('invalid', `lock code ${lock}`);
  if (door > LOCK_CODES.length) return refused('invalid', `door code ${door}`);
  if (run > RUN_STATES.length) return refused('invalid', `run state code ${run}`);
  if (battery > 100 && battery !== BATTERY_UNKNOWN) return refused('invalid', `battery ${battery}`);

  const report: LockReport = {};
  if (event) report.event = REPORT_EVENTS[event - 1];
  if (lock) report.lock = LOCK_CODES[lock - 1];
  if (door) report.door = LOCK_CODES[door - 1];
  if (run) report.runState = RUN_STATES[run - 1] as RunState;
  if (battery !== BATTERY_UNKNOWN) report.battery = battery;

  let at = 6;
  let seq: number | undefined;
  if (flags & FLAG_SEQ) {
    if (bytes.length < 8) return refused('malformed', 'report truncated: seq');
    seq = view.getUint16(6);
    at = 8;
  }
  if (at < bytes.length) {
    const read = readEntries(bytes, view, at, false);
    if (!('entries' in read)) return refused(read.reason, `props: ${read.detail}`);
    report.props = read.entries;
  }
  return decoded(seq === undefined ? { type: 'report', report } : { type: 'report', seq, report });
}

function decodeResult(bytes: Uint8Array, view: DataView): Decoded<LockPayload> {
  if (bytes.length < 5) return refused('malformed', 'result truncated');
  if (bytes.length > 6) return refused('malformed', `result has ${bytes.length - 6} trailing bytes`);
  const outcome = bytes[4] as number;
  if (outcome > 1) return refused('invalid', `result outcome code ${outcome}`);
  const result: LockPayload = {
    type: 'result',
    seq: view.getUint16(2),
    outcome: outcome ? 'Failure' : 'Success',
  };
  if (bytes.length === 6) result.errorCode = bytes[5] as number;
  return decoded(result);
}

/** An uplink: a report or a command result. */
export function decodeLockPayload(bytes: Uint8Array): Decoded<LockPayload> {
  const header = checkHeader(bytes);
  if (!header.ok) return header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (header.value) {
    case TYPE_REPORT:
      return decodeReport(bytes, view);
    case TYPE_RESULT:
      return decodeResult(bytes, view);
    case TYPE_COMMAND:
      return refused('unsupported', 'a command (downlink) payload is not an uplink');
    default:
      return refused('unsupported', `payload type 0x${header.value.toString(16)}`);
  }
}

/** A downlink, as the lock (or the simulator) reads it. */
export function decodeLockCommand(bytes: Uint8Array): Decoded<LockCommand> {
  const header = checkHeader(bytes);
  if (!header.ok) return header;
  if (header.value !== TYPE_COMMAND)
    return refused('unsupported', `payload type 0x${header.value.toString(16)}`);
  if (bytes.length < 5) return refused('malformed', 'command truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cmd = COMMAND_NAMES.get(bytes[4] as number);
  if (cmd === undefined) return refused('invalid', `command code ${bytes[4]}`);
  const read = readEntries(bytes, view, 5, true);
  if (!('entries' in read)) return refused(read.reason, `params: ${read.detail}`);
  return decoded({ seq: view.getUint16(2), cmd, params: read.entries as Record<string, number> });
}
