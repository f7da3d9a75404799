import { describe, expect, it } from 'vitest';
import '../validation/zod-messages.ts';
import {
  type DeviceParamForm,
  deviceCommandSearch,
  deviceParamForm,
  minutesOfDay,
  paramCommandName,
  paramCommandParams,
  SYSTEM_COMMAND_NAMES,
  systemCommandOf,
} from './commands.ts';

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

const value = (extra: Record<string, unknown> = {}) => ({
  kind: 'value',
  deviceId: 'd1',
  name: 'heartbeatSeconds',
  value: '300',
  ...extra,
});
const period = (extra: Record<string, unknown> = {}) => ({
  kind: 'period',
  deviceId: 'd1',
  name: 'quietHours',
  start: '22:00',
  end: '23:30',
  ...extra,
});
const parsed = (input: Record<string, unknown>): DeviceParamForm => deviceParamForm.parse(input);

describe('deviceParamForm (spec §5 parameter send-down)', () => {
  it('takes a value parameter and a period parameter', () => {
    expect(parsed(value())).toEqual(value());
    expect(parsed(period())).toEqual(period());
  });

  it('needs a known kind', () => {
    expect(issuesOf(deviceParamForm.safeParse({}))).toEqual(['kind:v.invalid']);
    expect(issuesOf(deviceParamForm.safeParse(value({ kind: 'range' })))).toEqual(['kind:v.invalid']);
  });

  it('needs the device, a name and a value', () => {
    expect(issuesOf(deviceParamForm.safeParse({ kind: 'value' }))).toEqual([
      'deviceId:v.required',
      'name:v.required',
      'value:v.required',
    ]);
    expect(issuesOf(deviceParamForm.safeParse(value({ value: '   ' })))).toEqual(['value:v.required']);
    expect(issuesOf(deviceParamForm.safeParse(value({ deviceId: '' })))).toEqual(['deviceId:v.required']);
  });

  it('trims the name and the value', () => {
    expect(parsed(value({ name: '  heartbeatSeconds ', value: ' 300 ' }))).toMatchObject({
      name: 'heartbeatSeconds',
      value: '300',
    });
  });

  it('takes a name of 1–64 letters, digits, `_`, `.` and `-` only', () => {
    expect(parsed(value({ name: 'door.open_alarm-2' })).name).toBe('door.open_alarm-2');
    expect(parsed(value({ name: 'n'.repeat(64) })).name).toHaveLength(64);
    for (const bad of ['heart beat', 'n'.repeat(65), 'température', 'a/b', '{x}']) {
      expect(issuesOf(deviceParamForm.safeParse(value({ name: bad }))), bad).toEqual(['name:v.paramName']);
    }
    // Not a name a parameter object can carry safely.
    expect(issuesOf(deviceParamForm.safeParse(value({ name: '__proto__' })))).toEqual(['name:v.paramName']);
  });

  it('limits the value to 256 characters and the device id to 64', () => {
    expect(parsed(value({ value: 'v'.repeat(256) })).kind).toBe('value');
    expect(
      issuesOf(deviceParamForm.safeParse(value({ value: 'v'.repeat(257), deviceId: 'd'.repeat(65) }))),
    ).toEqual(['deviceId:v.tooLong', 'value:v.tooLong']);
  });

  it('takes texts only', () => {
    expect(issuesOf(deviceParamForm.safeParse(value({ name: 12, value: 5 })))).toEqual([
      'name:v.invalid',
      'value:v.invalid',
    ]);
  });

  it('needs a period as two HH:mm times of day', () => {
    expect(issuesOf(deviceParamForm.safeParse(period({ start: undefined, end: undefined })))).toEqual([
      'start:v.required',
      'end:v.required',
    ]);
    for (const bad of ['7:00', '24:00', '12:60', '12:5', '1200', '12:00:00']) {
      expect(issuesOf(deviceParamForm.safeParse(period({ start: bad }))), bad).toContain('start:v.timeOfDay');
    }
    expect(parsed(period({ start: '00:00', end: '23:59' }))).toMatchObject({ start: '00:00', end: '23:59' });
    // a malformed time is not also called out of order
    expect(issuesOf(deviceParamForm.safeParse(period({ start: 'ab:cd', end: '08:00' })))).toEqual([
      'start:v.timeOfDay',
    ]);
  });

  it('needs the start of a period before its end (not equal, not later)', () => {
    expect(issuesOf(deviceParamForm.safeParse(period({ start: '08:00', end: '08:00' })))).toEqual([
      'end:v.endAfterStart',
    ]);
    expect(issuesOf(deviceParamForm.safeParse(period({ start: '09:00', end: '08:59' })))).toEqual([
      'end:v.endAfterStart',
    ]);
    expect(parsed(period({ start: '08:00', end: '08:01' })).kind).toBe('period');
  });

  it('ignores fields of the other kind', () => {
    expect(parsed(value({ start: '09:00', end: '08:00' }))).toEqual(value());
    expect(parsed(period({ value: 'x' }))).toEqual(period());
  });
});

describe('minutesOfDay', () => {
  it('counts the minutes since midnight', () => {
    expect(minutesOfDay('00:00')).toBe(0);
    expect(minutesOfDay('08:30')).toBe(510);
    expect(minutesOfDay('23:59')).toBe(1439);
  });
});

describe('paramCommandParams (the setParam parameters)', () => {
  const valueParams = (v: string) => paramCommandParams(parsed(value({ name: 'p', value: v })));

  it('sends a decimal number as a number, as the lock payload carries numbers only', () => {
    expect(valueParams('300')).toEqual({ p: 300 });
    expect(valueParams('-3.5')).toEqual({ p: -3.5 });
    expect(valueParams(' 42 ')).toEqual({ p: 42 });
    expect(valueParams('007')).toEqual({ p: 7 });
  });

  it('sends any other value as text', () => {
    expect(valueParams('eco')).toEqual({ p: 'eco' });
    expect(valueParams('1e3')).toEqual({ p: '1e3' });
    expect(valueParams('0x10')).toEqual({ p: '0x10' });
    expect(valueParams('1.')).toEqual({ p: '1.' });
    expect(valueParams('12:00')).toEqual({ p: '12:00' });
    // more digits than a number keeps exactly
    expect(valueParams('1234567890123456')).toEqual({ p: '1234567890123456' });
    expect(valueParams('123456789012345')).toEqual({ p: 123456789012345 });
  });

  it('sends a period as `{name}.start` and `{name}.end` in minutes since midnight', () => {
    expect(paramCommandParams(parsed(period({ start: '22:00', end: '23:30' })))).toEqual({
      'quietHours.start': 1320,
      'quietHours.end': 1410,
    });
    expect(paramCommandParams(parsed(period({ start: '00:00', end: '23:59' })))).toEqual({
      'quietHours.start': 0,
      'quietHours.end': 1439,
    });
  });
});

describe('deviceCommandSearch', () => {
  it('filters by one device, whose id is at most 64 characters', () => {
    expect(deviceCommandSearch.parse({ deviceId: 'd1' })).toEqual({ deviceId: 'd1' });
    expect(deviceCommandSearch.parse({})).toEqual({});
    expect(issuesOf(deviceCommandSearch.safeParse({ deviceId: '' })).length).toBe(1);
    expect(issuesOf(deviceCommandSearch.safeParse({ deviceId: 'd'.repeat(65) }))).toEqual([
      'deviceId:v.tooLong',
    ]);
  });
});

describe('systemCommandOf', () => {
  it('recognises the commands the server makes by code and stored name, and nothing else', () => {
    for (const [cmdCode, name] of Object.entries(SYSTEM_COMMAND_NAMES)) {
      if (cmdCode === 'setParam') continue;
      expect(systemCommandOf({ cmdCode, name })).toEqual({ code: cmdCode, param: null });
    }
    // A device type's own command that shares a code keeps the name its configuration gives it.
    expect(systemCommandOf({ cmdCode: 'open', name: '开门' })).toBeNull();
    expect(systemCommandOf({ cmdCode: 'setParam', name: 'volume' })).toBeNull();
    expect(systemCommandOf({ cmdCode: 'toString', name: 'toString' })).toBeNull();
  });

  it('recognises a parameter command, with the parameter it sets', () => {
    const name = paramCommandName(parsed(value()));
    expect(name).toBe('setParam heartbeatSeconds');
    expect(systemCommandOf({ cmdCode: 'setParam', name })).toEqual({
      code: 'setParam',
      param: 'heartbeatSeconds',
    });
    expect(systemCommandOf({ cmdCode: 'setParam', name: paramCommandName(parsed(period())) })).toEqual({
      code: 'setParam',
      param: 'quietHours',
    });
    // The name alone names no parameter.
    expect(systemCommandOf({ cmdCode: 'setParam', name: 'setParam ' })).toBeNull();
  });
});
