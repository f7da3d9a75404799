import { describe, expect, it } from 'vitest';
import { isOnline, MIN_OFFLINE_AFTER_SECONDS, offlineAfterSeconds } from './online-rule.ts';

const at = (iso: string) => new Date(iso);

describe('offlineAfterSeconds', () => {
  it('is twice the heartbeat interval', () => {
    expect(offlineAfterSeconds(300)).toBe(600);
    expect(offlineAfterSeconds(3600)).toBe(7200);
  });

  it('never drops below a minute, also for missing or nonsense intervals', () => {
    expect(offlineAfterSeconds(10)).toBe(MIN_OFFLINE_AFTER_SECONDS);
    expect(offlineAfterSeconds(30)).toBe(60);
    expect(offlineAfterSeconds(31)).toBe(62);
    expect(offlineAfterSeconds(0)).toBe(60);
    expect(offlineAfterSeconds(-5)).toBe(60);
    expect(offlineAfterSeconds(Number.NaN)).toBe(60);
  });
});

describe('isOnline (injected clock)', () => {
  const last = at('2026-11-21T10:00:00Z');

  it('is online up to and not including twice the heartbeat of silence', () => {
    expect(isOnline(last, 300, at('2026-11-21T10:00:00Z'))).toBe(true);
    expect(isOnline(last, 300, at('2026-11-21T10:09:59.999Z'))).toBe(true);
    expect(isOnline(last, 300, at('2026-11-21T10:10:00Z'))).toBe(false);
    expect(isOnline(last, 300, at('2026-11-21T11:00:00Z'))).toBe(false);
  });

  it('tolerates one lost heartbeat but not two', () => {
    // heartbeat 60 s: the report at 10:01 is lost, 10:02 is not yet there
    expect(isOnline(last, 60, at('2026-11-21T10:01:59Z'))).toBe(true);
    expect(isOnline(last, 60, at('2026-11-21T10:02:00Z'))).toBe(false);
  });

  it('is offline before the first message', () => {
    expect(isOnline(null, 300, last)).toBe(false);
  });

  it('counts a message stamped slightly in the future as online', () => {
    expect(isOnline(at('2026-11-21T10:00:05Z'), 300, last)).toBe(true);
  });
});
