import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clockOffsetOf,
  MAX_ROUND_TRIP_MS,
  MIN_SKEW_MS,
  noteServerDate,
  OFFSET_SAMPLES,
  offsetSample,
  resetServerClock,
  serverNow,
} from './server-clock.ts';

const SERVER = Date.UTC(2026, 10, 29, 6, 0, 0);
const header = (ms: number) => new Date(ms).toUTCString();

afterEach(() => {
  resetServerClock();
  vi.useRealTimers();
});

describe('offsetSample', () => {
  it("takes the header's second as the middle of the round trip, server minus browser", () => {
    // The browser is 5 minutes behind: it sent at SERVER − 5 min and heard back 100 ms later.
    const sent = SERVER - 300_000;
    expect(offsetSample(header(SERVER), sent, sent + 100)).toBe(300_000 + 500 - 50);
    // A browser ahead of the server gives a negative offset.
    expect(offsetSample(header(SERVER), SERVER + 60_000, SERVER + 60_020)).toBe(-60_000 + 500 - 10);
  });

  it('says nothing without a readable header, for an answer too slow or for times out of order', () => {
    expect(offsetSample(null, SERVER, SERVER + 10)).toBeNull();
    expect(offsetSample('', SERVER, SERVER + 10)).toBeNull();
    expect(offsetSample('not a date', SERVER, SERVER + 10)).toBeNull();
    expect(offsetSample(header(SERVER), SERVER, SERVER + MAX_ROUND_TRIP_MS + 1)).toBeNull();
    expect(offsetSample(header(SERVER), SERVER, SERVER + MAX_ROUND_TRIP_MS)).not.toBeNull();
    expect(offsetSample(header(SERVER), SERVER, SERVER - 1)).toBeNull();
  });
});

describe('clockOffsetOf', () => {
  it('is 0 without estimates and while their median is within the minimum skew', () => {
    expect(clockOffsetOf([])).toBe(0);
    expect(clockOffsetOf([MIN_SKEW_MS - 1, -(MIN_SKEW_MS - 1), 400])).toBe(0);
    expect(clockOffsetOf([-MIN_SKEW_MS + 1])).toBe(0);
  });

  it('is the median from the minimum skew on, so that one odd answer does not move it', () => {
    expect(clockOffsetOf([MIN_SKEW_MS])).toBe(MIN_SKEW_MS);
    expect(clockOffsetOf([-MIN_SKEW_MS])).toBe(-MIN_SKEW_MS);
    expect(clockOffsetOf([300_400, 299_900, 9_000_000])).toBe(300_400);
    expect(clockOffsetOf([300_000, 301_000, 0, 299_000])).toBe(299_500);
  });
});

describe('serverNow', () => {
  it("is the browser's time until the answers say the browser is off, then the server's", () => {
    vi.useFakeTimers({ now: SERVER - 300_000 });
    expect(serverNow()).toBe(Date.now());
    // Answers of a browser clock 1 s off change nothing.
    noteServerDate(header(Date.now() + 1_000), Date.now(), Date.now() + 30);
    expect(serverNow()).toBe(Date.now());
    for (let i = 0; i < 3; i++) noteServerDate(header(SERVER), Date.now(), Date.now() + 40);
    expect(Math.abs(serverNow() - SERVER)).toBeLessThanOrEqual(1_000);
    vi.advanceTimersByTime(60_000);
    expect(Math.abs(serverNow() - (SERVER + 60_000))).toBeLessThanOrEqual(1_000);
  });

  it('follows the latest estimates only: a clock set right again is taken as right', () => {
    vi.useFakeTimers({ now: SERVER - 300_000 });
    for (let i = 0; i < OFFSET_SAMPLES; i++) noteServerDate(header(SERVER), Date.now(), Date.now() + 20);
    expect(serverNow()).not.toBe(Date.now());
    vi.setSystemTime(SERVER);
    for (let i = 0; i < Math.ceil(OFFSET_SAMPLES / 2); i++) {
      noteServerDate(header(Date.now()), Date.now(), Date.now() + 20);
    }
    expect(serverNow()).toBe(Date.now());
    // An answer that says nothing leaves the estimate as it is.
    noteServerDate(null, Date.now(), Date.now() + 20);
    expect(serverNow()).toBe(Date.now());
  });
});
