/**
 * The server's clock, as the console reads it from the `Date` header of the API's answers: durations that
 * count on from a server time ("offline for", how long an alarm has been open) are taken against it, so a
 * browser whose clock is wrong (a control-room PC minutes off) still shows them right.
 *
 * The header has whole seconds, and an answer takes its time to come: an estimate is good to about half a
 * second plus half the round trip. The browser's clock is taken as right until the estimates agree that it
 * is off by `MIN_SKEW_MS` or more.
 */

/** Estimates kept: the offset is their median, so one slow or odd answer does not move it. */
export const OFFSET_SAMPLES = 5;
/** A browser clock off by less than this is taken as right (the estimate's own error is about a second). */
export const MIN_SKEW_MS = 2_000;
/** Answers slower than this say too little about when the server wrote its header. */
export const MAX_ROUND_TRIP_MS = 4_000;

/**
 * What one answer says of the browser clock's error (server minus browser, ms), or null when it says
 * nothing: no or an unreadable `Date` header, or an answer too slow. The server wrote the header at some
 * point of the round trip, within the second it names: taken as the middle of both.
 */
export function offsetSample(dateHeader: string | null, sentAt: number, receivedAt: number): number | null {
  if (!dateHeader) return null;
  const serverSecond = Date.parse(dateHeader);
  if (Number.isNaN(serverSecond)) return null;
  const roundTrip = receivedAt - sentAt;
  if (roundTrip < 0 || roundTrip > MAX_ROUND_TRIP_MS) return null;
  return Math.round(serverSecond + 500 - (sentAt + receivedAt) / 2);
}

/** The offset to apply from the latest estimates: their median, or 0 while that is within `MIN_SKEW_MS`. */
export function clockOffsetOf(samples: readonly number[]): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
  return Math.abs(median) < MIN_SKEW_MS ? 0 : median;
}

let samples: number[] = [];
let offsetMs = 0;

/** Takes the `Date` header of an API answer (the request layer calls it for every answer). */
export function noteServerDate(dateHeader: string | null, sentAt: number, receivedAt: number): void {
  const sample = offsetSample(dateHeader, sentAt, receivedAt);
  if (sample === null) return;
  samples = [...samples, sample].slice(-OFFSET_SAMPLES);
  offsetMs = clockOffsetOf(samples);
}

/** The server's time now, as well as the console knows it (the browser's until the answers say otherwise). */
export function serverNow(): number {
  return Date.now() + offsetMs;
}

/** Forgets the estimates (tests). */
export function resetServerClock(): void {
  samples = [];
  offsetMs = 0;
}
