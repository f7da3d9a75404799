/**
 * Offline PINs, version 1 (docs/offline-pins.md): the server derives a PIN from a per-device secret, and a
 * lock with no network verifies it with the same secret, its own clock and a small memory. Both sides are
 * here, so that the server and the simulated locks cannot drift apart; nothing here reads a clock or does
 * I/O (HMAC is a pure function).
 *
 * A PIN is 9 digits. Once, time-period and erase codes are HOTP values (RFC 4226, HMAC-SHA-1, 9 digits) of a
 * 64-bit counter that names the type, a slot and the start hour, which makes them TOTP values (RFC 6238)
 * with a one-hour step and the type in the high bytes. A weekly PIN carries its weekdays and its number of
 * weeks in clear in its first 3 digits and is authenticated by the 6-digit HOTP value that follows.
 */
import { createHmac } from 'node:crypto';

export type HotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** RFC 4226 §5.3: HMAC over the 8-byte big-endian counter, dynamic truncation to 31 bits, `digits` decimals. */
export function hotp(
  secret: Uint8Array,
  counter: bigint,
  digits: number,
  algorithm: HotpAlgorithm = 'sha1',
): string {
  if (!Number.isInteger(digits) || digits < 6 || digits > 9) throw new RangeError('digits must be 6–9');
  if (counter < 0n || counter >= 1n << 64n) throw new RangeError('counter must fit 64 bits');
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 §4: HOTP of the number of `stepSeconds` steps since `t0Seconds`. */
export function totp(
  secret: Uint8Array,
  unixSeconds: number,
  options: { digits?: number; stepSeconds?: number; t0Seconds?: number; algorithm?: HotpAlgorithm } = {},
): string {
  const step = options.stepSeconds ?? 30;
  const counter = BigInt(Math.floor((unixSeconds - (options.t0Seconds ?? 0)) / step));
  return hotp(secret, counter, options.digits ?? 8, options.algorithm ?? 'sha1');
}

// ---------------------------------------------------------------------------------------------------------
// The station's clock. Locks keep UTC and are provisioned with the station's offset (no daylight saving).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Validity of each derived type (spec §9). */
export const ONCE_HOURS = 2;
export const PERIOD_HOURS = 4;
/** Weekly windows run 00:00–06:00 station time on their weekdays. */
export const WEEKLY_WINDOW_HOURS = 6;
/** A weekly PIN covers 1–7 consecutive weeks (Monday to Sunday). */
export const MAX_WEEKLY_WEEKS = 7;
/** Once and time-period PINs have 10 slots per device and start hour, so that several can share an hour. */
export const PIN_SLOTS = 10;
/** A PIN never used within this time of its first window's start expires (the activation deadline). */
export const ACTIVATION_HOURS = 24;
/** An erase code works within this time of the hour it was issued for. */
export const ERASE_HOURS = 24;
/**
 * Consecutive wrong PINs before the keypad locks out, and for how long: 15 minutes, doubled with each
 * lock-out that follows without a right PIN between, at most a day.
 */
export const LOCKOUT_AFTER_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const MAX_LOCKOUT_MS = 24 * 3_600_000;
export const PIN_DIGITS = 9;

/** Station-local hour index: whole hours since 1970-01-01 00:00 station time. */
export function localHour(at: number, utcOffsetMinutes: number): number {
  return Math.floor((at + utcOffsetMinutes * 60_000) / HOUR_MS);
}

/** Station-local day index, weekday (0 Monday … 6 Sunday) and Monday-based week index. */
export function localDay(
  at: number,
  utcOffsetMinutes: number,
): { day: number; weekday: number; week: number } {
  const day = Math.floor((at + utcOffsetMinutes * 60_000) / DAY_MS);
  // 1970-01-01 was a Thursday (weekday 3).
  return { day, weekday: (((day + 3) % 7) + 7) % 7, week: Math.floor((day + 3) / 7) };
}

/** UTC ms of a station-local hour index. */
export function hourStart(hour: number, utcOffsetMinutes: number): number {
  return hour * HOUR_MS - utcOffsetMinutes * 60_000;
}

/** UTC ms of 00:00 station time on a weekday (0 Monday) of a week index. */
export function weekdayStart(week: number, weekday: number, utcOffsetMinutes: number): number {
  return (week * 7 - 3 + weekday) * DAY_MS - utcOffsetMinutes * 60_000;
}

// ---------------------------------------------------------------------------------------------------------
// What a PIN stands for.

/** The derived PINs and the erase code, with the parameters their counter carries. */
export type PinSpec =
  /** Valid [startHour, startHour + 2 h), one use. */
  | { type: 'once'; slot: number; startHour: number }
  /** Valid [startHour, startHour + 4 h), any number of uses. */
  | { type: 'timePeriod'; slot: number; startHour: number }
  /** 00:00–06:00 on the weekdays of `weekdays` (bit 0 Monday … bit 6 Sunday) of weeks startWeek…+weeks−1. */
  | { type: 'weekly'; startWeek: number; weeks: number; weekdays: number }
  /** Makes the lock forget every PIN it holds and refuse every derived PIN that starts at `hour` or before. */
  | { type: 'erase'; hour: number };

export type DerivedPinType = Exclude<PinSpec['type'], 'erase'>;

const TYPE_TAG = { once: 0x01n, timePeriod: 0x02n, weekly: 0x03n, erase: 0x0en } as const;

/** The weekly PIN's clear part: (weeks − 1) × 128 + weekdays, 1–895. */
function weeklyPrefix(weeks: number, weekdays: number): number {
  return (weeks - 1) * 128 + weekdays;
}

/** The problem with a spec's parameters, or null when the lock could accept it. */
export function pinSpecProblem(spec: PinSpec): string | null {
  const hourOk = (h: number) => Number.isSafeInteger(h) && h >= 0 && h < 2 ** 40;
  switch (spec.type) {
    case 'once':
    case 'timePeriod':
      if (!Number.isInteger(spec.slot) || spec.slot < 0 || spec.slot >= PIN_SLOTS) return 'slot';
      return hourOk(spec.startHour) ? null : 'startHour';
    case 'weekly':
      if (!Number.isInteger(spec.weeks) || spec.weeks < 1 || spec.weeks > MAX_WEEKLY_WEEKS) return 'weeks';
      if (!Number.isInteger(spec.weekdays) || spec.weekdays < 1 || spec.weekdays > 127) return 'weekdays';
      return Number.isSafeInteger(spec.startWeek) && spec.startWeek >= 1 && spec.startWeek < 2 ** 36
        ? null
        : 'startWeek';
    case 'erase':
      return hourOk(spec.hour) ? null : 'hour';
  }
}

/** The 64-bit counter of a spec: type tag (8 bits) · parameter (8 or 16 bits) · start (48 or 40 bits). */
export function pinCounter(spec: PinSpec): bigint {
  const problem = pinSpecProblem(spec);
  if (problem) throw new RangeError(`bad PIN ${spec.type}: ${problem}`);
  switch (spec.type) {
    case 'once':
    case 'timePeriod':
      return (TYPE_TAG[spec.type] << 56n) | (BigInt(spec.slot) << 48n) | BigInt(spec.startHour);
    case 'weekly':
      return (
        (TYPE_TAG.weekly << 56n) |
        (BigInt(weeklyPrefix(spec.weeks, spec.weekdays)) << 40n) |
        BigInt(spec.startWeek)
      );
    case 'erase':
      return (TYPE_TAG.erase << 56n) | BigInt(spec.hour);
  }
}

/** A spec's reference: its counter in 16 hex digits (how a lock names a PIN it used, or is told to revoke). */
export function pinRef(spec: PinSpec): string {
  return pinCounter(spec).toString(16).padStart(16, '0');
}

/** The 9-digit PIN of a spec for a device secret. */
export function derivePin(secret: Uint8Array, spec: PinSpec): string {
  const counter = pinCounter(spec);
  if (spec.type !== 'weekly') return hotp(secret, counter, PIN_DIGITS);
  return String(weeklyPrefix(spec.weeks, spec.weekdays)).padStart(3, '0') + hotp(secret, counter, 6);
}

/** A window in UTC ms, half-open [start, end). */
export interface PinWindow {
  start: number;
  end: number;
}

/** Every window in which the lock accepts a spec's PIN, in time order. */
export function pinWindows(spec: PinSpec, utcOffsetMinutes: number): PinWindow[] {
  switch (spec.type) {
    case 'once':
    case 'timePeriod': {
      const start = hourStart(spec.startHour, utcOffsetMinutes);
      return [{ start, end: start + (spec.type === 'once' ? ONCE_HOURS : PERIOD_HOURS) * HOUR_MS }];
    }
    case 'weekly': {
      const windows: PinWindow[] = [];
      for (let week = spec.startWeek; week < spec.startWeek + spec.weeks; week++) {
        for (let weekday = 0; weekday < 7; weekday++) {
          if ((spec.weekdays & (1 << weekday)) === 0) continue;
          const start = weekdayStart(week, weekday, utcOffsetMinutes);
          windows.push({ start, end: start + WEEKLY_WINDOW_HOURS * HOUR_MS });
        }
      }
      return windows;
    }
    case 'erase': {
      const start = hourStart(spec.hour, utcOffsetMinutes);
      return [{ start, end: start + ERASE_HOURS * HOUR_MS }];
    }
  }
}

/** The whole span of a spec: from its first window's start to its last window's end. */
export function pinSpan(spec: PinSpec, utcOffsetMinutes: number): PinWindow {
  const windows = pinWindows(spec, utcOffsetMinutes);
  return { start: windows[0]!.start, end: windows[windows.length - 1]!.end };
}

/** The time before which a PIN must be used for the first time (or it expires). */
export function activationDeadline(spec: PinSpec, utcOffsetMinutes: number): number {
  const span = pinSpan(spec, utcOffsetMinutes);
  return Math.min(span.end, span.start + ACTIVATION_HOURS * HOUR_MS);
}

/** The hour a derived PIN starts in (what an erase code compares with). */
function startHourOf(spec: PinSpec, utcOffsetMinutes: number): number {
  if (spec.type === 'once' || spec.type === 'timePeriod') return spec.startHour;
  if (spec.type === 'erase') return spec.hour;
  return localHour(pinSpan(spec, utcOffsetMinutes).start, utcOffsetMinutes);
}

/**
 * Whether the server holds a PIN valid at `at`: inside one of its windows, and, before its first use, before
 * its activation deadline. (Single use and revocation are the lock's memory, not the time.)
 */
export function pinValidAt(
  spec: PinSpec,
  at: number,
  utcOffsetMinutes: number,
  options: { used?: boolean } = {},
): boolean {
  if (!options.used && at >= activationDeadline(spec, utcOffsetMinutes)) return false;
  return pinWindows(spec, utcOffsetMinutes).some((w) => w.start <= at && at < w.end);
}

// ---------------------------------------------------------------------------------------------------------
// The lock's side.

/** What a lock remembers between two PIN entries (each entry maps a PIN reference to when it may be forgotten). */
export interface LockPinMemory {
  /** once-PINs already used */
  used: Readonly<Record<string, number>>;
  /** PINs used at least once (their activation deadline no longer applies) */
  activated: Readonly<Record<string, number>>;
  /** PINs the server revoked (deletePin) */
  revoked: Readonly<Record<string, number>>;
  /** derived PINs starting at this station hour or before are refused (the last erase code); null: none */
  erasedThroughHour: number | null;
  /** consecutive wrong entries */
  failures: number;
  /** lock-outs since the last right PIN (each doubles the next) */
  lockouts: number;
  /** UTC ms until which every entry is refused; null: not locked out */
  lockedUntil: number | null;
  /** PINs the server sent (setPin: durable ones, and every PIN of the custom LoRaWAN algorithm), by id */
  stored: Readonly<Record<string, StoredPin>>;
  /**
   * Stored PINs used up (once), deleted or erased, by id, until when they are remembered: a setPin that comes
   * again later (commands are delivered at least once) must not bring one back.
   */
  storedGone: Readonly<Record<string, number>>;
}

export const EMPTY_PIN_MEMORY: LockPinMemory = {
  used: {},
  activated: {},
  revoked: {},
  erasedThroughHour: null,
  failures: 0,
  lockouts: 0,
  lockedUntil: null,
  stored: {},
  storedGone: {},
};

export type PinRefusal = 'lockedOut' | 'wrong' | 'used' | 'revoked' | 'erased' | 'notActivated';

export type PinEntry =
  /** `spec` is null for a stored PIN (its reference is `storedPinRef(id)`). */
  | { outcome: 'opened'; spec: PinSpec | null; ref: string; memory: LockPinMemory }
  | { outcome: 'erased'; spec: PinSpec; ref: string; memory: LockPinMemory }
  | { outcome: 'refused'; reason: PinRefusal; memory: LockPinMemory };

/** The specs a lock tries for a code entered at `at`, most specific first (the lock's search, bounded). */
export function candidateSpecs(code: string, at: number, utcOffsetMinutes: number): PinSpec[] {
  if (!/^\d{9}$/.test(code)) return [];
  const hour = localHour(at, utcOffsetMinutes);
  const specs: PinSpec[] = [];
  for (let back = 0; back < ONCE_HOURS; back++) {
    for (let slot = 0; slot < PIN_SLOTS; slot++) specs.push({ type: 'once', slot, startHour: hour - back });
  }
  for (let back = 0; back < PERIOD_HOURS; back++) {
    for (let slot = 0; slot < PIN_SLOTS; slot++) {
      specs.push({ type: 'timePeriod', slot, startHour: hour - back });
    }
  }
  const prefix = Number(code.slice(0, 3));
  const weekdays = prefix % 128;
  const weeks = Math.floor(prefix / 128) + 1;
  const today = localDay(at, utcOffsetMinutes);
  if (weekdays !== 0 && weeks <= MAX_WEEKLY_WEEKS && (weekdays & (1 << today.weekday)) !== 0) {
    for (let back = 0; back < weeks; back++) {
      specs.push({ type: 'weekly', startWeek: today.week - back, weeks, weekdays });
    }
  }
  for (let back = 0; back < ERASE_HOURS; back++) specs.push({ type: 'erase', hour: hour - back });
  return specs.filter((spec) => pinSpecProblem(spec) === null);
}

/** Drops what the lock may forget at `at`. */
function pruned(memory: LockPinMemory, at: number): LockPinMemory {
  const keep = (entries: Readonly<Record<string, number>>) =>
    Object.fromEntries(Object.entries(entries).filter(([, until]) => until > at));
  return {
    ...memory,
    used: keep(memory.used),
    activated: keep(memory.activated),
    revoked: keep(memory.revoked),
    storedGone: keep(memory.storedGone),
  };
}

function failed(memory: LockPinMemory, at: number, reason: PinRefusal): PinEntry {
  const failures = memory.failures + 1;
  if (failures >= LOCKOUT_AFTER_FAILURES) {
    const lockouts = memory.lockouts + 1;
    const length = Math.min(MAX_LOCKOUT_MS, LOCKOUT_MS * 2 ** Math.min(lockouts - 1, 16));
    return {
      outcome: 'refused',
      reason,
      memory: { ...memory, failures: 0, lockouts, lockedUntil: at + length },
    };
  }
  return { outcome: 'refused', reason, memory: { ...memory, failures } };
}

/**
 * A code entered on the lock's keypad at `at`: the lock's whole decision, and its memory afterwards. A code
 * that matches a derived PIN outside what the memory allows (used, revoked, erased, past its activation
 * deadline) is refused with that reason; every refusal counts towards the lock-out.
 */
export function enterPin(
  /** null: a lock never given a PIN secret checks only the PINs it holds */
  secret: Uint8Array | null,
  code: string,
  at: number,
  utcOffsetMinutes: number,
  before: LockPinMemory,
): PinEntry {
  const memory = pruned(before, at);
  if (memory.lockedUntil !== null && at < memory.lockedUntil) {
    return { outcome: 'refused', reason: 'lockedOut', memory };
  }
  const open = { ...memory, lockedUntil: null };
  let refusal: PinRefusal = 'wrong';
  for (const pin of Object.values(open.stored)) {
    if (pin.code !== code || !storedPinOpens(pin, at, utcOffsetMinutes)) continue;
    // A stored once-PIN is forgotten at its use.
    const after = pin.kind === 'once' ? dropStoredPin(open, pin.id, at) : open;
    return {
      outcome: 'opened',
      spec: null,
      ref: storedPinRef(pin.id),
      memory: { ...after, failures: 0, lockouts: 0 },
    };
  }
  for (const spec of secret ? candidateSpecs(code, at, utcOffsetMinutes) : []) {
    if (derivePin(secret!, spec) !== code) continue;
    const ref = pinRef(spec);
    const span = pinSpan(spec, utcOffsetMinutes);
    if (spec.type === 'erase') {
      if (open.erasedThroughHour !== null && spec.hour <= open.erasedThroughHour) {
        refusal = 'used';
        continue;
      }
      const after: LockPinMemory = {
        ...EMPTY_PIN_MEMORY,
        revoked: open.revoked,
        // The PINs it held are forgotten, and a setPin that comes again does not bring them back.
        storedGone: Object.values(open.stored).reduce<LockPinMemory>(
          (memory, pin) => dropStoredPin(memory, pin.id, at),
          open,
        ).storedGone,
        erasedThroughHour: spec.hour,
      };
      return { outcome: 'erased', spec, ref, memory: after };
    }
    if (!pinValidAt(spec, at, utcOffsetMinutes, { used: true })) continue;
    if (open.erasedThroughHour !== null && startHourOf(spec, utcOffsetMinutes) <= open.erasedThroughHour) {
      refusal = 'erased';
      continue;
    }
    if (ref in open.revoked) {
      refusal = 'revoked';
      continue;
    }
    if (ref in open.used) {
      refusal = 'used';
      continue;
    }
    if (!(ref in open.activated) && at >= activationDeadline(spec, utcOffsetMinutes)) {
      refusal = 'notActivated';
      continue;
    }
    const after: LockPinMemory = {
      ...open,
      failures: 0,
      lockouts: 0,
      activated: { ...open.activated, [ref]: span.end },
      used: spec.type === 'once' ? { ...open.used, [ref]: span.end } : open.used,
    };
    return { outcome: 'opened', spec, ref, memory: after };
  }
  return failed(open, at, refusal);
}

/** The lock told to revoke a PIN (a deletePin command): refused from now until its last window ends. */
export function revokePin(memory: LockPinMemory, spec: PinSpec, utcOffsetMinutes: number): LockPinMemory {
  return { ...memory, revoked: { ...memory.revoked, [pinRef(spec)]: pinSpan(spec, utcOffsetMinutes).end } };
}

/** The spec a reference names (a used-PIN report, a revocation), or null when it names none. */
export function specOfRef(ref: string): PinSpec | null {
  if (!/^[0-9a-f]{16}$/.test(ref)) return null;
  const counter = BigInt(`0x${ref}`);
  const tag = counter >> 56n;
  let spec: PinSpec;
  if (tag === TYPE_TAG.once || tag === TYPE_TAG.timePeriod) {
    spec = {
      type: tag === TYPE_TAG.once ? 'once' : 'timePeriod',
      slot: Number((counter >> 48n) & 0xffn),
      startHour: Number(counter & 0xffff_ffff_ffffn),
    };
  } else if (tag === TYPE_TAG.weekly) {
    const prefix = Number((counter >> 40n) & 0xffffn);
    spec = {
      type: 'weekly',
      startWeek: Number(counter & 0xff_ffff_ffffn),
      weeks: Math.floor(prefix / 128) + 1,
      weekdays: prefix % 128,
    };
  } else if (tag === TYPE_TAG.erase) {
    spec = { type: 'erase', hour: Number(counter & 0xff_ffff_ffff_ffffn) };
  } else {
    return null;
  }
  return pinSpecProblem(spec) === null && pinRef(spec) === ref ? spec : null;
}

/** A `deletePin` command's parameters: the PIN's counter as three numbers (the lock payload carries numbers only). */
export interface DeletePinParams {
  /** 1 once, 2 timePeriod, 3 weekly */
  pinType: number;
  /** the slot (once, timePeriod) or the weekly prefix p */
  pinParam: number;
  /** the start hour (once, timePeriod) or the first week (weekly) */
  pinStart: number;
}

export function deletePinParams(spec: PinSpec): DeletePinParams {
  switch (spec.type) {
    case 'once':
    case 'timePeriod':
      return { pinType: spec.type === 'once' ? 1 : 2, pinParam: spec.slot, pinStart: spec.startHour };
    case 'weekly':
      return { pinType: 3, pinParam: weeklyPrefix(spec.weeks, spec.weekdays), pinStart: spec.startWeek };
    case 'erase':
      throw new RangeError('an erase code is not deleted');
  }
}

/** The spec a `deletePin` command names, or null when its parameters name none. */
export function specOfDeletePinParams(params: Readonly<Record<string, unknown>> | undefined): PinSpec | null {
  const { pinType, pinParam, pinStart } = params ?? {};
  if (typeof pinType !== 'number' || typeof pinParam !== 'number' || typeof pinStart !== 'number')
    return null;
  let spec: PinSpec;
  if (pinType === 1 || pinType === 2) {
    spec = { type: pinType === 1 ? 'once' : 'timePeriod', slot: pinParam, startHour: pinStart };
  } else if (pinType === 3) {
    spec = {
      type: 'weekly',
      startWeek: pinStart,
      weeks: Math.floor(pinParam / 128) + 1,
      weekdays: pinParam % 128,
    };
  } else {
    return null;
  }
  return pinSpecProblem(spec) === null ? spec : null;
}

// ---------------------------------------------------------------------------------------------------------
// Stored PINs: sent to the lock online (setPin) instead of derived. Durable PINs always travel this way, and
// every PIN of the custom LoRaWAN algorithm.

export type StoredPinKind = 'once' | 'timePeriod' | 'weekly' | 'durable';
const STORED_KINDS: readonly StoredPinKind[] = ['once', 'timePeriod', 'weekly', 'durable'];
/** The reference tag of a stored PIN: `0x05` · id (56 bits). */
const STORED_TAG = 0x05n;
/** A deletePin's pinType for a stored PIN (its id in pinStart). */
const STORED_DELETE_TYPE = 4;

/** A PIN the lock holds: its code and window (UTC minutes, half-open), weekly windows on `weekdays`. */
export interface StoredPin {
  /** 1 … 2³¹ − 1, chosen by the server, unique per lock */
  id: number;
  /** 9 digits, the first not 0 (it travels as an int32) */
  code: string;
  kind: StoredPinKind;
  fromMinute: number;
  toMinute: number;
  /** weekly: bit 0 Monday … bit 6 Sunday; 0 otherwise */
  weekdays: number;
}

/** Whether a stored PIN opens at `at`: inside its window, and for a weekly one 00:00–06:00 on its weekdays. */
export function storedPinOpens(pin: StoredPin, at: number, utcOffsetMinutes: number): boolean {
  const minute = Math.floor(at / 60_000);
  if (minute < pin.fromMinute || minute >= pin.toMinute) return false;
  if (pin.kind !== 'weekly') return true;
  const local = at + utcOffsetMinutes * 60_000;
  const hourOfDay = Math.floor(local / HOUR_MS) % 24;
  return (
    hourOfDay < WEEKLY_WINDOW_HOURS && (pin.weekdays & (1 << localDay(at, utcOffsetMinutes).weekday)) !== 0
  );
}

export function storedPinRef(id: number): string {
  return ((STORED_TAG << 56n) | BigInt(id)).toString(16).padStart(16, '0');
}

/** The id a stored PIN's reference names, or null. */
export function storedPinIdOfRef(ref: string): number | null {
  if (!/^05[0-9a-f]{14}$/.test(ref)) return null;
  const id = Number(BigInt(`0x${ref}`) & 0xff_ffff_ffff_ffffn);
  return id >= 1 && id < 2 ** 31 ? id : null;
}

/** The setPin command's parameters (numbers only, for the lock payload). */
export function setPinParams(pin: StoredPin): Record<string, number> {
  return {
    pinId: pin.id,
    pin: Number(pin.code),
    pinKind: STORED_KINDS.indexOf(pin.kind) + 1,
    pinFrom: pin.fromMinute,
    pinTo: pin.toMinute,
    pinWeekdays: pin.weekdays,
  };
}

/** The stored PIN a setPin command carries, or null when its parameters are not one. */
export function storedPinOfParams(params: Readonly<Record<string, unknown>> | undefined): StoredPin | null {
  const { pinId, pin, pinKind, pinFrom, pinTo, pinWeekdays } = params ?? {};
  const ints = [pinId, pin, pinKind, pinFrom, pinTo, pinWeekdays];
  if (!ints.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return null;
  const kind = STORED_KINDS[(pinKind as number) - 1];
  const id = pinId as number;
  if (!kind || id < 1 || id >= 2 ** 31) return null;
  if ((pin as number) < 100_000_000 || (pin as number) > 999_999_999) return null;
  if (
    (pinTo as number) <= (pinFrom as number) ||
    (pinWeekdays as number) < 0 ||
    (pinWeekdays as number) > 127
  ) {
    return null;
  }
  return {
    id,
    code: String(pin),
    kind,
    fromMinute: pinFrom as number,
    toMinute: pinTo as number,
    weekdays: pinWeekdays as number,
  };
}

/** The deletePin parameters that remove a stored PIN. */
export function deleteStoredPinParams(id: number): DeletePinParams {
  return { pinType: STORED_DELETE_TYPE, pinParam: 0, pinStart: id };
}

/** The stored PIN id a deletePin command names, or null when it names a derived PIN or nothing. */
export function storedIdOfDeletePinParams(
  params: Readonly<Record<string, unknown>> | undefined,
): number | null {
  const { pinType, pinStart } = params ?? {};
  if (pinType !== STORED_DELETE_TYPE || typeof pinStart !== 'number') return null;
  return Number.isSafeInteger(pinStart) && pinStart >= 1 && pinStart < 2 ** 31 ? pinStart : null;
}

/** How long the lock remembers a stored PIN gone whose window it does not know (a deletePin of one it never held). */
export const STORED_GONE_MS = 24 * HOUR_MS;

/**
 * The lock told to keep a PIN (setPin); a PIN of the same id is replaced. One used up, deleted or erased is
 * not brought back by a setPin that comes again.
 */
export function storePin(memory: LockPinMemory, pin: StoredPin): LockPinMemory {
  if (String(pin.id) in memory.storedGone) return memory;
  return { ...memory, stored: { ...memory.stored, [String(pin.id)]: pin } };
}

/** The lock drops a stored PIN (deletePin, or a once-PIN used), and remembers it gone until its window ends. */
export function dropStoredPin(memory: LockPinMemory, id: number, at: number): LockPinMemory {
  const { [String(id)]: dropped, ...rest } = memory.stored;
  const until = Math.max(at + STORED_GONE_MS, dropped ? dropped.toMinute * 60_000 : 0);
  return { ...memory, stored: rest, storedGone: { ...memory.storedGone, [String(id)]: until } };
}
