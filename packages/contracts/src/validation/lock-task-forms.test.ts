import { describe, expect, it } from 'vitest';
import { fixedAuthorizationForm, lockTaskForm, MAX_TASK_OPERATORS } from './lock-task-forms.ts';

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const NOW = Date.parse('2026-11-27T08:00:00Z');
const form = lockTaskForm(() => NOW);
const task = {
  name: 'Replace signal cable, bay 3',
  startTime: '2026-11-27T09:00:00+08:00',
  endTime: '2026-11-27T18:00:00+08:00',
  operatorIds: ['s1', 's2'],
  items: [{ deviceId: 'd1', keyId: 'k1' }, { deviceId: 'd2' }],
};

describe('lockTaskForm', () => {
  it('takes a task with operators and items, times given back in UTC', () => {
    const parsed = form.parse(task);
    expect(parsed.startTime).toBe('2026-11-27T01:00:00.000Z');
    expect(parsed.items).toEqual([
      { deviceId: 'd1', keyId: 'k1' },
      { deviceId: 'd2', keyId: null },
    ]);
    expect(parsed).toMatchObject({
      allDevice: false,
      auditorId: null,
      auditDeptId: null,
      operateDeptId: null,
    });
  });

  it('wants a name, both times and an end later than the start', () => {
    expect(messages(form.safeParse({ ...task, name: ' ' }))).toEqual({ name: 'v.required' });
    expect(messages(form.safeParse({ ...task, startTime: '' }))).toEqual({ startTime: 'v.required' });
    expect(messages(form.safeParse({ ...task, endTime: 'tomorrow' }))).toEqual({ endTime: 'v.invalid' });
    expect(messages(form.safeParse({ ...task, endTime: task.startTime }))).toEqual({
      endTime: 'v.endAfterStart',
    });
    expect(messages(form.safeParse({ ...task, endTime: '2026-11-27T08:59:59+08:00' }))).toEqual({
      endTime: 'v.endAfterStart',
    });
  });

  it('refuses an end earlier than now, and takes an end at now', () => {
    const past = { ...task, startTime: '2026-11-27T06:00:00Z' };
    expect(messages(form.safeParse({ ...past, endTime: '2026-11-27T07:59:59.999Z' }))).toEqual({
      endTime: 'v.endNotPast',
    });
    expect(form.safeParse({ ...past, endTime: '2026-11-27T08:00:00Z' }).success).toBe(true);
  });

  it('wants at least one operator, and each once', () => {
    expect(messages(form.safeParse({ ...task, operatorIds: [] }))).toEqual({
      operatorIds: 'v.taskOperators',
    });
    expect(messages(form.safeParse({ ...task, operatorIds: ['s1', 's1'] }))).toEqual({
      operatorIds: 'v.duplicateItem',
    });
    const many = Array.from({ length: MAX_TASK_OPERATORS + 1 }, (_, i) => `s${i}`);
    expect(messages(form.safeParse({ ...task, operatorIds: many }))).toEqual({ operatorIds: 'v.tooMany' });
  });

  it('wants all devices or at least one operation item, no device twice with the same key', () => {
    expect(messages(form.safeParse({ ...task, items: [] }))).toEqual({ items: 'v.taskItems' });
    expect(form.safeParse({ ...task, items: [], allDevice: true }).success).toBe(true);
    expect(
      messages(form.safeParse({ ...task, items: [{ deviceId: 'd1' }, { deviceId: 'd1', keyId: null }] })),
    ).toEqual({ 'items.1.deviceId': 'v.duplicateItem' });
    // The same device with two keys is two items.
    expect(
      form.safeParse({
        ...task,
        items: [
          { deviceId: 'd1', keyId: 'k1' },
          { deviceId: 'd1', keyId: 'k2' },
        ],
      }).success,
    ).toBe(true);
    expect(messages(form.safeParse({ ...task, items: [{ deviceId: '' }] }))).toEqual({
      'items.0.deviceId': 'v.required',
    });
  });
});

describe('fixedAuthorizationForm', () => {
  const authorization = {
    objectType: 'department',
    objectId: 'dept-1',
    startTime: '2026-12-01T00:00:00Z',
    endTime: '2027-01-01T00:00:00Z',
    deviceIds: ['d1'],
  };

  it('takes a time-bounded or a permanent authorisation', () => {
    expect(fixedAuthorizationForm.parse(authorization)).toMatchObject({ forever: false, allDevice: false });
    expect(
      fixedAuthorizationForm.safeParse({ ...authorization, forever: true, startTime: null, endTime: '' })
        .success,
    ).toBe(true);
  });

  it('wants a staff member or a department', () => {
    // Another value is invalid, not missing (finding: "Staff" was answered "required").
    for (const objectType of ['role', 'Staff']) {
      expect(messages(fixedAuthorizationForm.safeParse({ ...authorization, objectType }))).toEqual({
        objectType: 'v.invalid',
      });
    }
    const { objectType: _left, ...withoutType } = authorization;
    expect(messages(fixedAuthorizationForm.safeParse(withoutType))).toEqual({ objectType: 'v.required' });
    expect(messages(fixedAuthorizationForm.safeParse({ ...authorization, objectId: '' }))).toEqual({
      objectId: 'v.required',
    });
  });

  it('wants both times, the end later than the start, unless forever', () => {
    expect(messages(fixedAuthorizationForm.safeParse({ ...authorization, endTime: null }))).toEqual({
      startTime: 'v.timeRangeRequired',
    });
    expect(
      messages(fixedAuthorizationForm.safeParse({ ...authorization, endTime: authorization.startTime })),
    ).toEqual({ endTime: 'v.endAfterStart' });
  });

  it('wants all devices or at least one, each once', () => {
    expect(messages(fixedAuthorizationForm.safeParse({ ...authorization, deviceIds: [] }))).toEqual({
      deviceIds: 'v.authorizationDevices',
    });
    expect(
      fixedAuthorizationForm.safeParse({ ...authorization, deviceIds: [], allDevice: true }).success,
    ).toBe(true);
    expect(messages(fixedAuthorizationForm.safeParse({ ...authorization, deviceIds: ['d1', 'd1'] }))).toEqual(
      {
        deviceIds: 'v.duplicateItem',
      },
    );
  });
});
