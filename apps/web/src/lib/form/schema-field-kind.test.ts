import {
  changePasswordForm,
  departmentForm,
  devicePasswordForm,
  myInfoForm,
  paramForm,
  registrationForm,
  roleForm,
  staffCreateForm,
} from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { describeField } from './schema-field-kind.ts';

describe('describeField', () => {
  it('reads a text field: its length limit, and required when it takes no empty value', () => {
    expect(describeField(roleForm, 'name')).toEqual({ kind: 'text', required: true, maxLength: 64 });
    expect(describeField(departmentForm, 'code')).toEqual({ kind: 'text', required: false, maxLength: 32 });
    expect(describeField(roleForm, 'deptId')).toEqual({ kind: 'text', required: false, maxLength: 64 });
  });

  it('reads a whole number with its bounds through the default', () => {
    expect(describeField(departmentForm, 'idxNo')).toEqual({
      kind: 'number',
      required: false,
      min: 0,
      max: 2_000_000_000,
      integer: true,
    });
  });

  it('knows yes / no fields and leaves choices to the page', () => {
    expect(describeField(paramForm, 'editable').kind).toBe('boolean');
    expect(describeField(departmentForm, 'deptType')).toEqual({ kind: 'other', required: true });
    expect(describeField(roleForm, 'roleType')).toEqual({ kind: 'other', required: false });
  });

  it('finds the fields of a refined or extended schema', () => {
    expect(describeField(staffCreateForm, 'email').kind).toBe('text');
    for (const field of ['staffType', 'name', 'email', 'verificationCode', 'password', 'confirmPassword']) {
      expect(describeField(registrationForm, field).required, field).toBe(true);
    }
    expect(describeField(myInfoForm, 'email').required).toBe(true);
    expect(describeField(devicePasswordForm, 'password').required).toBe(true);
    expect(describeField(myInfoForm, 'telNo').required).toBe(false);
    for (const field of ['oldPwd', 'newPwd', 'confirmPwd']) {
      expect(describeField(changePasswordForm, field).required, field).toBe(true);
    }
  });

  it('fails on a field the schema does not have (a typo in a page)', () => {
    expect(() => describeField(roleForm, 'nmae')).toThrow('nmae');
  });
});
