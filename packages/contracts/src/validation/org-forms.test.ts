import { describe, expect, it } from 'vitest';
import { issueParams, translateValidation } from './messages.ts';
import {
  departmentForm,
  MAX_RANGE_MS,
  PARAM_WHOLE_RANGES,
  paramForm,
  paramValueProblem,
  registrationForm,
  staffCreateForm,
  timeRangeProblem,
  wholeParamValue,
} from './org-forms.ts';

const staff = { name: 'chan.taiman', staffType: 1, password: 'x' } as const;
const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('staff fields (spec §5)', () => {
  it('takes a card id of exactly 12 hexadecimal characters and upper-cases it', () => {
    const ok = staffCreateForm.safeParse({ ...staff, rfidCode: '0a1b2c3d4e5f' });
    expect(ok.success && ok.data.rfidCode).toBe('0A1B2C3D4E5F');
    for (const bad of ['0A1B2C3D4E5', '0A1B2C3D4E5F6', '0A1B2C3D4E5G', '0A1B 2C3D4E5']) {
      expect(issuesOf(staffCreateForm.safeParse({ ...staff, rfidCode: bad })), bad).toEqual([
        'rfidCode:v.rfid',
      ]);
    }
    const empty = staffCreateForm.safeParse({ ...staff, rfidCode: '' });
    expect(empty.success && empty.data.rfidCode).toBeNull();
  });

  it('takes telephone numbers with an optional prefix, spaces or dashes, and refuses letters', () => {
    for (const good of ['+852 9123 4567', '2993-1111', '13812345678']) {
      expect(staffCreateForm.safeParse({ ...staff, telNo: good }).success, good).toBe(true);
    }
    for (const bad of ['12345', 'call me', '+852 9123 45a7']) {
      expect(issuesOf(staffCreateForm.safeParse({ ...staff, telNo: bad })), bad).toEqual([
        'telNo:v.telephone',
      ]);
    }
  });

  it('needs a name, a staff type and a password; sex is 0 or 1', () => {
    expect(issuesOf(staffCreateForm.safeParse({ staffType: 1, password: 'x', name: '  ' }))).toEqual([
      'name:v.required',
    ]);
    expect(issuesOf(staffCreateForm.safeParse({ name: 'a', password: 'x' }))).toEqual([
      'staffType:v.required',
    ]);
    expect(issuesOf(staffCreateForm.safeParse({ name: 'a', staffType: 0 }))).toEqual(['password:v.password']);
    expect(staffCreateForm.safeParse({ ...staff, sex: 2 }).success).toBe(false);
    expect(staffCreateForm.safeParse({ ...staff, sex: 1 }).success).toBe(true);
  });
});

describe('department form', () => {
  it('needs a name and a type Electric or Builder, and a whole order number', () => {
    expect(departmentForm.safeParse({ name: '车务处', deptType: 'Electric' }).success).toBe(true);
    expect(issuesOf(departmentForm.safeParse({ name: '', deptType: 'Builder' }))).toEqual([
      'name:v.required',
    ]);
    expect(departmentForm.safeParse({ name: 'a', deptType: 'Other' }).success).toBe(false);
    expect(issuesOf(departmentForm.safeParse({ name: 'a', deptType: 'Builder', idxNo: 1.5 }))).toEqual([
      'idxNo:v.integer',
    ]);
    expect(issuesOf(departmentForm.safeParse({ name: 'a', deptType: 'Builder', idxNo: -1 }))).toEqual([
      'idxNo:v.integer',
    ]);
    // Too large is said so, with the maximum (finding: it said "enter a whole number").
    expect(
      issuesOf(departmentForm.safeParse({ name: 'a', deptType: 'Builder', idxNo: 2_000_000_001 })),
    ).toEqual(['idxNo:v.max']);
    expect(issuesOf(departmentForm.safeParse({ name: 'a', deptType: 'Other' }))).toEqual([
      'deptType:v.invalid',
    ]);
  });
});

describe('parameter values (spec §5: JSON values must be valid JSON)', () => {
  it('checks each value against its type', () => {
    expect(paramValueProblem('json', '{"a":1}')).toBeNull();
    expect(paramValueProblem('json', '{a:1}')).toBe('v.json');
    expect(paramValueProblem('boolean', 'true')).toBeNull();
    expect(paramValueProblem('boolean', 'yes')).toBe('v.invalid');
    expect(paramValueProblem('number', '12.5')).toBeNull();
    expect(paramValueProblem('number', '12a')).toBe('v.number');
    // Number(' ') is 0, yet a blank is no number.
    expect(paramValueProblem('number', ' ')).toBe('v.number');
    expect(paramValueProblem('string', 'anything')).toBeNull();
    expect(paramValueProblem('json', '')).toBeNull();
  });

  it('takes only a layout the home page has for HomePageType (spec §8: misconfigured)', () => {
    const form = (val: string) => ({ name: 'HomePageType', valType: 'string', val });
    expect(paramForm.safeParse(form('default')).success).toBe(true);
    expect(paramForm.safeParse(form('device')).success).toBe(true);
    expect(paramForm.safeParse(form('')).success).toBe(true);
    expect(issuesOf(paramForm.safeParse(form('dashboard')))).toEqual(['val:v.homePageType']);
    expect(paramForm.safeParse({ name: 'OtherParam', valType: 'string', val: 'dashboard' }).success).toBe(
      true,
    );
  });

  it('takes a whole number within its range for each numeric parameter the system reads', () => {
    const form = (name: string, val: string) => ({ name, valType: 'number', val });
    const refusal = (name: string, val: string) => {
      const issue = paramForm.safeParse(form(name, val)).error?.issues[0];
      return issue && translateValidation(issue.message, 'en', issueParams(issue));
    };
    for (const bad of ['99999999999999999999', '-5', '1.5', ' ', '1441', '1e3', '0x10']) {
      expect(refusal('DoorOpenTimeout', bad), bad).toBe(
        bad === ' ' ? 'Enter a number' : 'Must be a whole number from 0 to 1440',
      );
    }
    for (const good of ['0', '30', '1440', ' 45 '])
      expect(refusal('DoorOpenTimeout', good), good).toBeUndefined();
    expect(refusal('MarkerSearchDistance', '0')).toBe('Must be a whole number from 1 to 50000');
    expect(refusal('MarkerSearchDistance', '50000')).toBeUndefined();
    expect(translateValidation('v.wholeRange', 'zh-CN', { min: 0, max: 1440 })).toBe(
      '须为 0 到 1440 之间的整数',
    );
    // Any other number parameter takes any number.
    expect(refusal('MyRatio', '1.5')).toBeUndefined();
  });

  it('takes "longitude,latitude" within range for LngLat', () => {
    const lngLat = (val: string) => issuesOf(paramForm.safeParse({ name: 'LngLat', valType: 'string', val }));
    for (const good of ['114.1694,22.3193', '-180,-90', '180, 90', '0,0'])
      expect(lngLat(good), good).toEqual([]);
    for (const bad of ['hello', '114.1694', '181,22', '114,91', '114,22,0', '114.12345678,22', ',']) {
      expect(lngLat(bad), bad).toEqual(['val:v.lngLat']);
    }
  });

  it('are read within their range whatever is stored, and say what was changed', () => {
    expect(wholeParamValue('DoorOpenTimeout', '45')).toEqual({ value: 45, adjusted: null });
    expect(wholeParamValue('DoorOpenTimeout', '99999999999999999999')).toEqual({
      value: PARAM_WHOLE_RANGES.DoorOpenTimeout!.max,
      adjusted: 'clamped',
    });
    expect(wholeParamValue('DoorOpenTimeout', '-5')).toEqual({ value: 0, adjusted: 'clamped' });
    expect(wholeParamValue('MarkerSearchDistance', 'far')).toEqual({ value: 500, adjusted: 'default' });
    expect(wholeParamValue('MarkerSearchDistance', null)).toEqual({ value: 500, adjusted: 'default' });
    expect(() => wholeParamValue('constructor', '1')).toThrow();
  });

  it('reports a bad value and a bad default on their own fields', () => {
    const result = paramForm.safeParse({ name: 'MapBounds', valType: 'json', val: '[1,', defVal: '{' });
    expect(issuesOf(result)).toEqual(['val:v.json', 'defVal:v.json']);
  });

  it('needs a name that starts with a letter', () => {
    expect(issuesOf(paramForm.safeParse({ name: '9lives', valType: 'string' }))).toEqual(['name:v.invalid']);
  });
});

describe('registration form (spec §5)', () => {
  const form = {
    staffType: 0,
    name: 'A123456(7)',
    email: 'a@example.com',
    verificationCode: 'BBNX4J',
    password: 'Kx9#mPq2vL',
    confirmPassword: 'Kx9#mPq2vL',
  };
  it('accepts a complete form', () => {
    expect(registrationForm.safeParse(form).success).toBe(true);
  });
  it('needs matching passwords, a valid email and a code of at most 6 characters', () => {
    expect(issuesOf(registrationForm.safeParse({ ...form, confirmPassword: 'other' }))).toEqual([
      'confirmPassword:v.passwordMismatch',
    ]);
    expect(issuesOf(registrationForm.safeParse({ ...form, email: 'not-an-email' }))).toEqual([
      'email:v.email',
    ]);
    expect(issuesOf(registrationForm.safeParse({ ...form, verificationCode: 'ABCDEFG' }))).toEqual([
      'verificationCode:v.code6',
    ]);
  });
});

describe('time ranges (spec §5)', () => {
  const start = '2026-01-01T00:00:00Z';
  it('needs an end later than the start, not equal, not earlier', () => {
    expect(timeRangeProblem(start, '2026-01-01T00:00:01Z', { required: true, maxOneYear: true })).toBeNull();
    expect(timeRangeProblem(start, start, { required: true, maxOneYear: false })).toEqual({
      path: 'endTime',
      message: 'v.endAfterStart',
    });
    expect(
      timeRangeProblem(start, '2025-12-31T23:59:59Z', { required: false, maxOneYear: false })?.message,
    ).toBe('v.endAfterStart');
  });
  it('needs a range when required, and at most a year when asked', () => {
    expect(timeRangeProblem(undefined, undefined, { required: false, maxOneYear: true })).toBeNull();
    expect(timeRangeProblem(undefined, undefined, { required: true, maxOneYear: true })?.message).toBe(
      'v.timeRangeRequired',
    );
    const end = new Date(Date.parse(start) + MAX_RANGE_MS).toISOString();
    const past = new Date(Date.parse(start) + MAX_RANGE_MS + 1000).toISOString();
    expect(timeRangeProblem(start, end, { required: true, maxOneYear: true })).toBeNull();
    expect(timeRangeProblem(start, past, { required: true, maxOneYear: true })?.message).toBe(
      'v.rangeWithinYear',
    );
    expect(timeRangeProblem(start, past, { required: true, maxOneYear: false })).toBeNull();
    expect(timeRangeProblem('yesterday', end, { required: true, maxOneYear: true })?.message).toBe(
      'v.invalid',
    );
  });
});
