/**
 * Shared, hand-written checks of JSON input. No schema library: the server decodes 20 000 messages/s and
 * these checks must cost little more than `JSON.parse` itself. Every check returns a detail naming the
 * field, or undefined when the value is acceptable; none of them throws.
 */

import { MAX_MESSAGE_ID_LENGTH, MAX_PROP_KEY_LENGTH, MAX_PROP_STRING_LENGTH, MAX_PROPS } from './limits.ts';
import { type Decoded, decoded, refused } from './message.ts';

export type JsonObject = Record<string, unknown>;

/** 2000-01-01T00:00:00Z: a lock clock before this was never set (it boots at 1970 or 2000). */
export const MIN_TIMESTAMP_MS = 946_684_800_000;
/** 2100-01-01T00:00:00Z: anything later is a corrupt clock or a timestamp in µs/ns. */
export const MAX_TIMESTAMP_MS = 4_102_444_800_000;

const MESSAGE_ID = /^[A-Za-z0-9._:-]+$/;
const PROP_KEY = /^[A-Za-z0-9_.-]+$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** UTF-8 byte length of a string without encoding it when its length alone decides. */
function exceedsBytes(text: string, maxBytes: number): boolean {
  // A UTF-16 code unit is 1..3 UTF-8 bytes (a surrogate pair, two units, is 4).
  if (text.length > maxBytes) return true;
  if (text.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') > maxBytes;
}

/**
 * A payload's text: the size checked before anything else, then UTF-8. Decoders take the text as well as the
 * bytes, so an adapter that keeps a message's raw text decodes it once and hands the text on.
 */
export function payloadText(payload: Uint8Array | string, maxBytes: number): Decoded<string> {
  if (typeof payload === 'string') {
    if (exceedsBytes(payload, maxBytes)) return refused('oversized', `payload over ${maxBytes} bytes`);
    return decoded(payload);
  }
  if (!(payload instanceof Uint8Array)) return refused('malformed', 'payload is neither bytes nor text');
  if (payload.byteLength > maxBytes) return refused('oversized', `payload over ${maxBytes} bytes`);
  try {
    return decoded(utf8.decode(payload));
  } catch {
    return refused('malformed', 'payload is not UTF-8');
  }
}

/** `payloadText`, then JSON parsing; any JSON value may come back. */
export function parseJson(payload: Uint8Array | string, maxBytes: number): Decoded<unknown> {
  const text = payloadText(payload, maxBytes);
  if (!text.ok) return text;
  try {
    return decoded(JSON.parse(text.value) as unknown);
  } catch {
    return refused('malformed', 'payload is not JSON');
  }
}

/** `parseJson` for payloads that must be one JSON object. */
export function parseJsonObject(payload: Uint8Array | string, maxBytes: number): Decoded<JsonObject> {
  const parsed = parseJson(payload, maxBytes);
  if (!parsed.ok) return parsed;
  if (!isJsonObject(parsed.value)) return refused('malformed', 'payload is not a JSON object');
  return decoded(parsed.value);
}

/** A message or command id: 1..64 characters of `[A-Za-z0-9._:-]`. */
export function checkMessageId(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field}: must be a string`;
  if (value.length === 0 || value.length > MAX_MESSAGE_ID_LENGTH) {
    return `${field}: must be 1..${MAX_MESSAGE_ID_LENGTH} characters`;
  }
  if (!MESSAGE_ID.test(value)) return `${field}: may only contain A-Z a-z 0-9 . _ : -`;
  return undefined;
}

/** Milliseconds since the epoch, an integer between 2000 and 2100. */
export function checkTimestamp(field: string, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${field}: must be an integer (ms)`;
  if (value < MIN_TIMESTAMP_MS || value > MAX_TIMESTAMP_MS) {
    return `${field}: must be a time between 2000-01-01 and 2100-01-01 (ms)`;
  }
  return undefined;
}

export function checkNumberRange(
  field: string,
  value: unknown,
  min: number,
  max: number,
): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${field}: must be a number`;
  if (value < min || value > max) return `${field}: must be ${min}..${max}`;
  return undefined;
}

export function checkOneOf<T extends string>(
  field: string,
  value: unknown,
  allowed: readonly T[],
): string | undefined {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    return `${field}: must be one of ${allowed.join(', ')}`;
  }
  return undefined;
}

export function isPropKey(key: string): boolean {
  // `__proto__` would pass the pattern and then set the prototype of the object we build.
  return key.length > 0 && key.length <= MAX_PROP_KEY_LENGTH && PROP_KEY.test(key) && key !== '__proto__';
}

/**
 * Extension properties or command parameters: an object of at most MAX_PROPS keys, values a string of
 * at most MAX_PROP_STRING_LENGTH characters, a finite number or a boolean. Returns the copy to keep (so no
 * unexpected value of the input object ever reaches the caller) or a detail.
 */
export function readProps(
  field: string,
  value: unknown,
): { props: Record<string, string | number | boolean> } | { error: string } {
  if (!isJsonObject(value)) return { error: `${field}: must be an object` };
  const keys = Object.keys(value);
  if (keys.length > MAX_PROPS) return { error: `${field}: at most ${MAX_PROPS} keys` };
  const props: Record<string, string | number | boolean> = {};
  for (const key of keys) {
    if (!isPropKey(key)) {
      return { error: `${field}: key must be 1..${MAX_PROP_KEY_LENGTH} characters of A-Z a-z 0-9 _ . -` };
    }
    const v = value[key];
    if (typeof v === 'string') {
      if (v.length > MAX_PROP_STRING_LENGTH) {
        return { error: `${field}.${key}: string longer than ${MAX_PROP_STRING_LENGTH} characters` };
      }
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { error: `${field}.${key}: must be a finite number` };
    } else if (typeof v !== 'boolean') {
      return { error: `${field}.${key}: must be a string, a number or a boolean` };
    }
    props[key] = v;
  }
  return { props };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;

/** Strict base64 (Buffer.from alone accepts anything and silently drops what it does not understand). */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

export function decodeHex(text: string): Uint8Array | undefined {
  if (!HEX.test(text)) return undefined;
  return Buffer.from(text, 'hex');
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
