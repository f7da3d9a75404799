import { describe, expect, it } from 'vitest';
import { pinForm } from './pin-forms.ts';

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const pin = {
  deviceId: 'd1',
  userId: 's1',
  type: 'once',
  startTime: '2026-11-27T09:00:00+08:00',
  endTime: '2026-11-27T11:00:00+08:00',
  reason: 'Inspect the tunnel door',
};

describe('pinForm (spec §5 PIN generation)', () => {
  it('takes a PIN, the TOTP algorithm by default, times given back in UTC', () => {
    const parsed = pinForm.parse(pin);
    expect(parsed).toMatchObject({ algorithm: 'totp', weekdays: [], startTime: '2026-11-27T01:00:00.000Z' });
  });

  it('wants the start and the end, the start not later than the end (equal is allowed)', () => {
    expect(messages(pinForm.safeParse({ ...pin, startTime: '' }))).toEqual({ startTime: 'v.required' });
    expect(messages(pinForm.safeParse({ ...pin, endTime: '' }))).toEqual({ endTime: 'v.required' });
    expect(messages(pinForm.safeParse({ ...pin, endTime: '2026-11-27T08:59:59+08:00' }))).toEqual({
      endTime: 'v.pinStartAfterEnd',
    });
    expect(pinForm.safeParse({ ...pin, endTime: pin.startTime }).success).toBe(true);
  });

  it('wants the lock, the user, a reason, and a weekly PIN its weekdays, each once', () => {
    expect(messages(pinForm.safeParse({ ...pin, deviceId: '', userId: '', reason: ' ' }))).toEqual({
      deviceId: 'v.required',
      userId: 'v.required',
      reason: 'v.required',
    });
    expect(messages(pinForm.safeParse({ ...pin, type: 'weekly' }))).toEqual({ weekdays: 'v.pinWeekdays' });
    expect(messages(pinForm.safeParse({ ...pin, type: 'weekly', weekdays: [0, 0] }))).toEqual({
      weekdays: 'v.duplicateItem',
    });
    expect(pinForm.safeParse({ ...pin, type: 'weekly', weekdays: [0, 6] }).success).toBe(true);
    expect(messages(pinForm.safeParse({ ...pin, reason: 'x'.repeat(201) }))).toEqual({ reason: 'v.tooLong' });
  });
});
