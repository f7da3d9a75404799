import type { AlarmBoardRow, AlarmChange } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { applyAlarmChanges, openFor, takeBoardCode } from './alarm-board.ts';

const row = (id: string, warnTime: string): AlarmBoardRow => ({
  id,
  deviceId: `d-${id}`,
  deviceName: `Door ${id}`,
  content: `Open ${id}`,
  severity: 'major',
  warnTime,
  ackTime: null,
});

const change = (id: string, state: AlarmChange['state'], warnTime: string): AlarmChange => ({
  ...row(id, warnTime),
  ruleName: 'Door left open',
  state,
  resetTime: null,
  sendCount: 1,
});

describe('the board after alarm changes', () => {
  it('adds raised alarms newest first, updates open ones and drops closed ones', () => {
    const rows = [row('a', '2026-11-27T01:00:00Z'), row('b', '2026-11-27T00:00:00Z')];
    const next = applyAlarmChanges(rows, [
      change('c', 'Warn', '2026-11-27T02:00:00Z'),
      { ...change('b', 'Warn', '2026-11-27T00:00:00Z'), ackTime: '2026-11-27T02:01:00Z' },
      change('a', 'Normal', '2026-11-27T01:00:00Z'),
      change('z', 'Reset', '2026-11-27T03:00:00Z'),
    ]);
    expect(next.map((r) => r.id)).toEqual(['c', 'b']);
    expect(next[1]?.ackTime).toBe('2026-11-27T02:01:00Z');
    expect(rows).toHaveLength(2);
  });
});

describe('how long an alarm is open', () => {
  it('counts whole days, hours and minutes, never below zero', () => {
    const start = '2026-11-27T00:00:00Z';
    expect(openFor(start, Date.parse(start) + (26 * 60 + 5) * 60_000 + 59_000)).toEqual({
      days: 1,
      hours: 2,
      minutes: 5,
    });
    expect(openFor(start, Date.parse(start) - 5000)).toEqual({ days: 0, hours: 0, minutes: 0 });
  });
});

describe('the code in the address', () => {
  it('is taken out of the address and handed over once', () => {
    const replaced: string[] = [];
    const code = takeBoardCode({ href: 'http://console.test/warningRecord?code=abc&lang=en#top' }, (url) =>
      replaced.push(url),
    );
    expect(code).toBe('abc');
    expect(replaced).toEqual(['/warningRecord?lang=en#top']);
    expect(
      takeBoardCode({ href: 'http://console.test/warningRecord' }, (url) => replaced.push(url)),
    ).toBeNull();
    expect(replaced).toHaveLength(1);
  });

  it('is read from the fragment, where links carry it so that no server sees it', () => {
    const replaced: string[] = [];
    expect(
      takeBoardCode({ href: 'http://console.test/warningRecord#code=x_Y-1' }, (url) => replaced.push(url)),
    ).toBe('x_Y-1');
    expect(
      takeBoardCode({ href: 'http://console.test/warningRecord?lang=en#code=z9&top=1' }, (url) =>
        replaced.push(url),
      ),
    ).toBe('z9');
    expect(replaced).toEqual(['/warningRecord', '/warningRecord?lang=en#top=1']);
  });
});
