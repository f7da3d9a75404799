import { z } from 'zod';
import { checkTime, wholeNumberUpTo } from './formats.ts';

/**
 * Format rules of the device ledger (spec §5, §9). Every rule is a plain function or schema, shared by the
 * server (which decides) and the console's forms (which say it early). Empty text means "not given".
 */

/** Most decimals of a coordinate (spec §9: coordinates 7 decimals). */
export const COORDINATE_DECIMALS = 7;

/**
 * A coordinate within ±`limit` with at most 7 decimals, written as digits (`180.0000000` is fine,
 * `180.00000001` is refused). Numbers are read by their shortest decimal writing.
 */
export function coordinateProblem(value: string, limit: 90 | 180): 'v.longitude' | 'v.latitude' | null {
  const key = limit === 180 ? 'v.longitude' : 'v.latitude';
  const match = /^[-+]?(\d{1,3})(?:\.(\d+))?$/.exec(value);
  if (!match) return key;
  if ((match[2]?.length ?? 0) > COORDINATE_DECIMALS) return key;
  return Math.abs(Number(value)) <= limit ? null : key;
}

/** A number as decimal digits (never `1e-7`); not a number reads as text no rule accepts. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return 'NaN';
  const text = String(value);
  return text.includes('e') ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

const coordinate = (limit: 90 | 180) =>
  z
    .union([z.number(), z.string()], { error: limit === 180 ? 'v.longitude' : 'v.latitude' })
    .transform((v) => (typeof v === 'number' ? numberText(v) : v.trim()))
    .superRefine((v, ctx) => {
      const problem = v === '' ? null : coordinateProblem(v, limit);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => (v === '' ? null : Number(v)))
    .nullable()
    .optional();

/** Longitude: at most 180 (either side) with up to 7 decimals. */
export const longitude = coordinate(180);
/** Latitude: at most 90 (either side) with up to 7 decimals. */
export const latitude = coordinate(90);

/** IMEI: exactly 15 digits (spec §5). */
export const IMEI_PATTERN = /^\d{15}$/;
/** IMSI: up to 15 digits (a mobile subscriber identity has at most 15). */
export const IMSI_PATTERN = /^\d{1,15}$/;
/** LoRaWAN identifiers (devEUI, appEUI): 16 hexadecimal digits, stored upper-cased. */
export const EUI_PATTERN = /^[0-9A-Fa-f]{16}$/;
/** Lock code RFID (card id): 12 hexadecimal characters, stored upper-cased (spec §5, §9). */
export const LOCK_RFID_PATTERN = /^[0-9A-Fa-f]{12}$/;
/** Bluetooth address: six pairs of hexadecimal digits, with or without `:` or `-` between them. */
export const BLUETOOTH_PATTERN = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/;
/** Codes (device, device type, key): letters, digits, `_`, `-` and `.`. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Optional text matching a pattern; empty becomes null, the result optionally upper-cased. */
export function optionalPatterned(pattern: RegExp, message: string, max: number, upper = false) {
  return z
    .string()
    .trim()
    .max(max, { error: message })
    .refine((v) => v === '' || v.length > max || pattern.test(v), { error: message })
    .transform((v) => (v === '' ? null : upper ? v.toUpperCase() : v))
    .nullable()
    .optional();
}

export const imei = optionalPatterned(IMEI_PATTERN, 'v.imei', 15);
export const imsi = optionalPatterned(IMSI_PATTERN, 'v.imsi', 15);
export const eui = optionalPatterned(EUI_PATTERN, 'v.eui', 16, true);
export const optionalCode = (max = 64) => optionalPatterned(CODE_PATTERN, 'v.code', max);

/** The Bluetooth address written as `AA:BB:CC:DD:EE:FF`. */
export function normaliseBluetooth(value: string): string {
  const hex = value.replace(/[:-]/g, '').toUpperCase();
  return hex.match(/.{2}/g)!.join(':');
}

export const bluetoothAddress = z
  .string()
  .trim()
  .refine((v) => v === '' || BLUETOOTH_PATTERN.test(v), { error: 'v.bluetooth' })
  .transform((v) => (v === '' ? null : normaliseBluetooth(v)))
  .nullable()
  .optional();

/** The RFID of a lock code: required, 12 hex characters, upper-cased. */
export const lockRfid = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .refine((v) => v === '' || LOCK_RFID_PATTERN.test(v), { error: 'v.rfid' })
  .transform((v) => v.toUpperCase());

/** A required code of letters, digits, `_`, `-` and `.`. */
export const requiredCode = (max = 64) =>
  z
    .string({ error: 'v.required' })
    .trim()
    .min(1, { error: 'v.required' })
    .max(max, { error: 'v.tooLong' })
    .refine((v) => v === '' || CODE_PATTERN.test(v), { error: 'v.code' });

/** Most seconds an interval may be: 30 days. */
export const MAX_INTERVAL_SECONDS = 30 * 24 * 3600;

/** A positive whole number of seconds (reporting and heartbeat intervals). */
export const intervalSeconds = z.coerce
  .number({ error: 'v.positiveInteger' })
  .int({ error: 'v.positiveInteger' })
  .min(1, { error: 'v.positiveInteger' })
  .max(MAX_INTERVAL_SECONDS, { error: 'v.positiveInteger' });

/** A whole number ≥ 0 (sort and index numbers). */
export const wholeNumber = wholeNumberUpTo(2_000_000_000);

/** A finite decimal number given as a number or as text. */
export const decimalNumber = z
  .union([z.number(), z.string().trim()], { error: 'v.number' })
  .refine((v) => v !== '', { error: 'v.required' })
  .transform((v) => Number(v))
  .refine((v) => Number.isFinite(v), { error: 'v.number' });

/** A required time as an ISO 8601 text (what the console's pickers send), given back in UTC. */
export const requiredTime = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .max(40, { error: 'v.invalid' })
  // An empty text is refused as required (above), not as invalid too.
  .superRefine(checkTime)
  .transform((v) => new Date(v).toISOString());

/** An optional time as an ISO 8601 text (what the console's pickers send); empty is "not given". */
export const optionalTime = z
  .string()
  .trim()
  .max(40, { error: 'v.invalid' })
  .superRefine(checkTime)
  .transform((v) => (v === '' ? null : new Date(v).toISOString()))
  .nullable()
  .optional();
