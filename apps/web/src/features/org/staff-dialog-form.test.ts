import type { StaffRow } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { staffCreateBody, staffDialogForm, staffToForm, staffUpdateBody } from './staff-dialog-form.ts';

const ROW: StaffRow = {
  id: 's1',
  name: 'chan.taiman',
  deptId: 'd1',
  deptName: 'Ops',
  age: 42,
  sex: 0,
  email: 'chan@example.hk',
  telNo: '2993 1111',
  address: null,
  notes: null,
  faxNo: null,
  rfidCode: '0A1B2C3D4E5F',
  staffType: 1,
  status: 'activated',
  hasSignature: false,
  roleIds: ['r1'],
  roleNames: ['Leader'],
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('staff dialog form', () => {
  it('needs no password to edit, and upper-cases the card id', () => {
    const parsed = staffDialogForm.parse({ ...staffToForm(ROW), rfidCode: 'abcdef012345' });
    expect(parsed.password).toBeUndefined();
    expect(parsed.rfidCode).toBe('ABCDEF012345');
  });

  it('sends cleared fields of an update as null, and roles only with staff.assignRole', () => {
    const values = staffDialogForm.parse({ ...staffToForm(ROW), sex: undefined, deptId: null, email: '' });
    const body = staffUpdateBody(values, 's1', false);
    expect(body).toMatchObject({ id: 's1', sex: null, deptId: null, email: null, age: 42 });
    expect(body).not.toHaveProperty('roleIds');
    expect(body).not.toHaveProperty('password');
    expect(staffUpdateBody(values, 's1', true).roleIds).toEqual(['r1']);
  });

  it('creates with the password and without an id', () => {
    const values = staffDialogForm.parse({
      name: 'new.one',
      staffType: 0,
      password: 'Kx9#mPq2vL',
      roleIds: ['r1'],
    });
    const body = staffCreateBody(values, false);
    expect(body).toMatchObject({ name: 'new.one', staffType: 0, password: 'Kx9#mPq2vL' });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('roleIds');
  });
});
