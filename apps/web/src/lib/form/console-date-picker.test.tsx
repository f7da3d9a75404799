// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Dayjs } from 'dayjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { provideBrowserApis } from '../../test-jsdom.ts';
import { consoleClock, instantOf } from '../console-time.ts';
import { ConsoleDatePicker, consolePickerConfig as config } from './console-date-picker.ts';
import { pickedTime, pickerValue } from './date-time-value.ts';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

beforeAll(provideBrowserApis);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the console pickers' dayjs config", () => {
  it("takes now on the station's clock (the Now button, today's cell, a date's default time)", () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T20:30:05Z') });
    const now = config.getNow();
    expect(config.locale.format('en_US', now, FORMAT)).toBe('2026-11-28 04:30:05');
    expect(config.getDate(now)).toBe(28);
    expect(instantOf(now)).toBe('2026-11-27T20:30:05.000Z');
    // A date picked with the time left at its start: midnight of the station's day.
    const midnight = config.setHour(config.setMinute(config.setSecond(now, 0), 0), 0);
    expect(instantOf(midnight)).toBe('2026-11-27T16:00:00.000Z');
  });

  it("reads a typed text as the station's wall clock", () => {
    const typed = config.locale.parse('en_US', '2026-11-28 04:30:00', [FORMAT]);
    expect(typed && instantOf(typed)).toBe('2026-11-27T20:30:00.000Z');
    expect(typed && config.locale.format('en_US', typed, FORMAT)).toBe('2026-11-28 04:30:00');
    expect(config.locale.parse('en_US', '2026-11-28 4:30', [FORMAT])).toBeNull();
  });

  it('compares typed, given and current values on the one clock', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T20:30:00Z') });
    const given = consoleClock('2026-11-27T21:30:00Z');
    const typed = config.locale.parse('en_US', '2026-11-28 05:00:00', [FORMAT]);
    if (!typed) throw new Error('not parsed');
    expect(config.isAfter(typed, config.getNow())).toBe(true);
    expect(config.isAfter(given, typed)).toBe(true);
  });
});

describe('ConsoleDatePicker', () => {
  function renderPicker(value: string) {
    const picked: (string | null)[] = [];
    render(
      <ConsoleDatePicker
        showTime
        format={FORMAT}
        value={pickerValue(value)}
        onChange={(next: Dayjs | null) => picked.push(pickedTime(next))}
        data-testid="picker"
      />,
    );
    return { input: screen.getByTestId('picker') as HTMLInputElement, picked };
  }

  it("shows a form's time on the station's clock and gives back the instant typed on it", async () => {
    const { input, picked } = renderPicker('2026-11-27T20:30:00.000Z');
    expect(input.value).toBe('2026-11-28 04:30:00');
    await act(async () => {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2026-11-29 01:15:00' } });
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    expect(picked).toEqual(['2026-11-28T17:15:00.000Z']);
  });

  it("sets now on the station's clock", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T20:30:05Z'), toFake: ['Date'] });
    const { input, picked } = renderPicker('2026-01-01T00:00:00.000Z');
    await act(async () => {
      fireEvent.mouseDown(input);
      fireEvent.click(input);
    });
    await waitFor(() => expect(document.querySelector('.ant-picker-now-btn')).not.toBeNull());
    await act(async () => {
      fireEvent.click(document.querySelector('.ant-picker-now-btn') as HTMLElement);
    });
    expect(picked).toEqual(['2026-11-27T20:30:05.000Z']);
  });
});
