// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { RuntimeRow } from '@uiot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { CLOCK_TICK_MS, useClock } from '../../lib/use-clock.ts';
import { runtimeColumns } from './runtime-columns.tsx';

const T = new Date('2026-03-01T08:00:00Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T);
});

afterEach(() => {
  cleanup();
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
