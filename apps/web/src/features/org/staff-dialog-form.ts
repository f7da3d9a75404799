import { type StaffRow, saveStaffEx, staffCreateForm } from '@uiot/contracts';
import { z } from 'zod';

/**
 * The staff dialog serves new and existing staff with one form: the contracts' create form, whose password
 * applies to new staff only (the field is required there), plus the record's id and the uploaded signature of
 * `saveStaffEx` / `updateStaffEx`.
 */
export const staffDialogForm = staffCreateForm.extend({
  id: z.string().max(64).optional(),
  password: staffCreateForm.shape.password.optional(),
  signatureFileId: saveStaffEx.body!.shape.signatureFileId,
});
export type StaffDialogInput = z.input<typeof staffDialogForm>;
export type StaffDialogValues = z.output<typeof staffDialogForm>;

/** The dialog's values of a staff member; the stored signature is kept unless replaced or removed. */
export function staffToForm(row: StaffRow): Partial<StaffDialogInput> {
  return {
    id: row.id,
    name: row.name,
    deptId: row.deptId,
    age: row.age,
    sex: row.sex === 0 || row.sex === 1 ? row.sex : null,
    email: row.email,
    telNo: row.telNo,
    address: row.address,
    notes: row.notes,
    faxNo: row.faxNo,
    rfidCode: row.rfidCode,
    staffType: row.staffType === 0 ? 0 : 1,
    roleIds: row.roleIds,
  };
}

/**
 * The update body: a field cleared in the dialog is sent as null, because the server keeps a field that
 * is left out; roles only for holders of staff.assignRole (the server refuses a change without it).
 */
export function staffUpdateBody(values: StaffDialogValues, id: string, withRoles: boolean) {
  const { password: _password, roleIds, ...profile } = values;
  return {
    ...profile,
    id,
    deptId: profile.deptId ?? null,
    age: profile.age ?? null,
    sex: profile.sex ?? null,
    email: profile.email ?? null,
    telNo: profile.telNo ?? null,
    address: profile.address ?? null,
    notes: profile.notes ?? null,
    faxNo: profile.faxNo ?? null,
    rfidCode: profile.rfidCode ?? null,
    ...(withRoles ? { roleIds: roleIds ?? [] } : {}),
  };
}

/** The create body: the password is required by the dialog; roles only for holders of staff.assignRole. */
export function staffCreateBody(values: StaffDialogValues, withRoles: boolean) {
  const { id: _id, password, roleIds, ...profile } = values;
  return { ...profile, password: password ?? '', ...(withRoles ? { roleIds: roleIds ?? [] } : {}) };
}
