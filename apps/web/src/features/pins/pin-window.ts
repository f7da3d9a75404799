import { PIN_VALID_HOURS, type PinForm, type PinType } from '@uiot/contracts';

const HOUR_MS = 3_600_000;

/** The types whose window is a fixed number of hours from the start's whole hour (spec §9). */
type HourlyType = keyof typeof PIN_VALID_HOURS;

export function isHourly(type: PinType | undefined): type is HourlyType {
  return type === 'once' || type === 'timePeriod';
}

/**
 * The end of the window a lock accepts a once or time-period PIN in: its hours counted from the whole hour
 * of the start (the server refuses a later end). The station clock is a whole number of hours off UTC
 * (docs/offline-pins.md), so its hours begin where UTC's do, whatever the browser's time zone: the start
 * hour is found in UTC. Null for the other types, or without a valid start.
 */
export function windowEnd(type: PinType | undefined, start: unknown): string | null {
  if (!isHourly(type) || typeof start !== 'string') return null;
  const at = Date.parse(start);
  if (Number.isNaN(at)) return null;
  return new Date(Math.floor(at / HOUR_MS) * HOUR_MS + PIN_VALID_HOURS[type] * HOUR_MS).toISOString();
}

/**
 * The values a new PIN starts from: a once-PIN from now, TOTP, on the lock given (the monitor's tab) or one
 * to choose.
 */
export function newPinValues(now: number, deviceId?: string): Partial<PinForm> {
  const startTime = new Date(now).toISOString();
  return {
    ...(deviceId ? { deviceId } : {}),
    type: 'once',
    algorithm: 'totp',
    startTime,
    endTime: windowEnd('once', startTime) ?? startTime,
    weekdays: [],
  };
}

/**
 * The body a form's values send: weekdays only for a weekly PIN, since the field is gone for the other types
 * and what it held then means nothing.
 */
export function pinBody(values: PinForm): PinForm {
  return values.type === 'weekly' ? values : { ...values, weekdays: [] };
}

/** Weekdays (0 Monday … 6 Sunday) in the week's order, each once. */
export function sortedWeekdays(days: readonly number[]): number[] {
  return [...new Set(days)].sort((a, b) => a - b);
}
