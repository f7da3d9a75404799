// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { RuntimeRow } from '@uiot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { noteServerDate, resetServerClock } from '../../lib/server-clock.ts';
import { CLOCK_TICK_MS, useClock } from '../../lib/use-clock.ts';
import { runtimeColumns } from './runtime-columns.tsx';

const T = new Date('2026-03-01T08:00:00Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T);
});

afterEach(() => {
  cleanup();
  resetServerClock();
  vi.useRealTimers();
});

describe('useClock', () => {
  it('moves on every interval while mounted, and stops when the page closes', () => {
    const { result, unmount } = renderHook(() => useClock(30_000));
    expect(result.current.getTime()).toBe(T);
    act(() => vi.advanceTimersByTime(29_999));
    expect(result.current.getTime()).toBe(T);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.getTime()).toBe(T + 30_000);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the server's time when the browser's clock is off", () => {
    // The browser is 7 minutes behind the server, as the API's answers say.
    const server = T + 7 * 60_000;
    for (let i = 0; i < 3; i++) noteServerDate(new Date(server).toUTCString(), T, T + 20);
    const { result, unmount } = renderHook(() => useClock(30_000));
    expect(Math.abs(result.current.getTime() - server)).toBeLessThanOrEqual(1_000);
    act(() => vi.advanceTimersByTime(30_000));
    expect(Math.abs(result.current.getTime() - (server + 30_000))).toBeLessThanOrEqual(1_000);
    unmount();
  });
});

describe('the runtime table\'s "offline for"', () => {
  const offlineFor = (row: Partial<RuntimeRow>, now: Date) => {
    const column = runtimeColumns(i18n.getFixedT('en', 'monitor'), 'en', now).find(
      (c) => c.key === 'offlineSeconds',
    );
    return column?.value?.(row as RuntimeRow);
  };
  const row: Partial<RuntimeRow> = {
    online: false,
    offlineSince: '2026-03-01T07:55:00.000Z',
    lastCollectTime: '2026-03-01T07:50:00.000Z',
    offlineSeconds: 300,
  };

  it('counts on with the clock, from when the device went offline', () => {
    const now = new Date(T);
    const later = new Date(T + 10 * CLOCK_TICK_MS);
    expect(offlineFor(row, now)).toMatch(/^5\s?min$/);
    expect(offlineFor(row, later)).not.toBe(offlineFor(row, now));
  });

  it('is empty for an online device', () => {
    expect(offlineFor({ online: true, offlineSince: null, lastCollectTime: null }, new Date(T))).toBe('');
  });
});
