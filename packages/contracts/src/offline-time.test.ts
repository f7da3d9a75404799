import { describe, expect, it } from 'vitest';
import { offlineSeconds } from './offline-time.ts';

const at = (iso: string) => new Date(iso);

describe('offlineSeconds (one rule for the server and the console)', () => {
  const now = at('2026-11-21T12:00:00Z');

  it('is null while online or before any message', () => {
    expect(offlineSeconds(true, null, at('2026-11-21T11:59:00Z'), now)).toBeNull();
    expect(offlineSeconds(true, '2026-11-21T11:00:00Z', null, now)).toBeNull();
    expect(offlineSeconds(false, null, null, now)).toBeNull();
  });

  it('counts whole seconds since the device went offline, not since its last message', () => {
    expect(offlineSeconds(false, at('2026-11-21T11:00:00Z'), at('2026-11-21T10:50:00Z'), now)).toBe(3600);
    expect(offlineSeconds(false, at('2026-11-21T11:59:58.5Z'), null, now)).toBe(1);
  });

  it('reads the times as the API sends them (ISO text) as well', () => {
    expect(offlineSeconds(false, '2026-11-21T11:00:00.000Z', '2026-11-21T10:50:00.000Z', now)).toBe(3600);
    expect(offlineSeconds(false, null, '2026-11-21T11:58:00.000Z', now)).toBe(120);
    expect(offlineSeconds(false, 'not a time', null, now)).toBeNull();
  });

  it('falls back to the last message when the sweep has not stamped it yet, never negative', () => {
    expect(offlineSeconds(false, null, at('2026-11-21T11:58:00Z'), now)).toBe(120);
    expect(offlineSeconds(false, at('2026-11-21T12:00:30Z'), null, now)).toBe(0);
  });

  it('grows with the clock', () => {
    const since = at('2026-11-21T11:00:00Z');
    expect(offlineSeconds(false, since, null, at('2026-11-21T11:00:30Z'))).toBe(30);
    expect(offlineSeconds(false, since, null, at('2026-11-21T11:01:30Z'))).toBe(90);
  });
});
