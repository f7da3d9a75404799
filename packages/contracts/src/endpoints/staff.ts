import { z } from 'zod';
import { staffAbilities } from '../abilities.ts';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { fileId } from '../files.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { STAFF_STATUSES, staffCreateForm, staffUpdateForm } from '../validation/org-forms.ts';

const id = z.string().min(1).max(64);

export const staffRow = z.object({
  id: z.string(),
  name: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string().nullable(),
  age: z.number().int().nullable(),
  sex: z.number().int().nullable(),
  email: z.string().nullable(),
  telNo: z.string().nullable(),
  address: z.string().nullable(),
  notes: z.string().nullable(),
  faxNo: z.string().nullable(),
  rfidCode: z.string().nullable(),
  staffType: z.number().int(),
  status: z.enum(STAFF_STATUSES),
  hasSignature: z.boolean(),
  roleIds: z.array(z.string()),
  roleNames: z.array(z.string()),
  createdAt: z.string(),
});
export type StaffRow = z.infer<typeof staffRow>;

/** A row of the staff lists: the staff member and what the signed-in user may do with it. */
export const staffListRow = staffRow.extend({ abilities: staffAbilities });
export type StaffListRow = z.infer<typeof staffListRow>;

const staffSearch = pageQuery.extend({
  name: z.string().trim().max(64).optional(),
  deptId: z.string().max(64).optional(),
  staffType: z.coerce.number().int().min(0).max(1).optional(),
  status: z.enum(STAFF_STATUSES).optional(),
});

const option = z.object({ id: z.string(), name: z.string() });

/**
 * Who may list the active staff for a selector (finding 10): the forms that choose a staff member — a key's
 * holder (the key ledger, its search included), a device's responsible staff member, a warn rule's
 * recipients and a fixed authorisation's staff member.
 */
const staffSelectors = anyOf(
  Permission.KeyRead,
  Permission.DeviceCreate,
  Permission.DeviceUpdate,
  Permission.WarnRuleCreate,
  Permission.WarnRuleUpdate,
  Permission.FixedAuthorizationCreate,
  Permission.FixedAuthorizationUpdate,
  Permission.LockTaskCreate,
  Permission.LockTaskUpdate,
  // The staff member an offline PIN is for.
  Permission.PinGenerate,
);

export const getAllStaff = defineEndpoint({
  method: 'GET',
  path: '/staff/getAll',
  access: staffSelectors,
  module: 'org',
  summary:
    'Every active staff member (id and name), for the key, device, warn rule, fixed authorisation, lock task and PIN forms',
  response: z.array(option),
});

export const getStaffById = defineEndpoint({
  method: 'GET',
  path: '/staff/getById',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'One staff member',
  query: z.object({ id }),
  response: staffRow,
});

export const getStaffRoleIds = defineEndpoint({
  method: 'GET',
  path: '/staff/getRoleIds',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'Role ids of a staff member',
  query: z.object({ staffId: id }),
  response: z.array(z.string()),
});

export const getStaffSignature = defineEndpoint({
  method: 'GET',
  path: '/staff/getSignatureById',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'Signature image of a staff member (PNG or JPEG file); 404 when there is none',
  query: z.object({ id }),
  response: z.string(),
  fileAnswer: true,
});

export const queryStaffByDept = defineEndpoint({
  method: 'GET',
  path: '/staff/queryByDeptId',
  access: staffSelectors,
  module: 'org',
  summary: 'Active staff of a department (id and name)',
  query: z.object({ deptId: id }),
  response: z.array(option),
});

export const queryStaffPage = defineEndpoint({
  method: 'GET',
  path: '/staff/queryPage',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'Staff, paged and searchable (a department includes the departments below it)',
  query: staffSearch,
  response: pageResult(staffListRow),
});

export const queryStaffPageByName = defineEndpoint({
  method: 'GET',
  path: '/staff/queryPageByName',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'Staff whose name contains the text, paged',
  query: pageQuery.extend({ name: z.string().trim().max(64).optional() }),
  response: pageResult(staffListRow),
});

export const queryStaffResTree = defineEndpoint({
  method: 'GET',
  path: '/staff/queryStaffResTree',
  access: Permission.StaffRead,
  module: 'org',
  summary: 'Effective permission keys of a staff member (from roles, own grants and departments)',
  query: z.object({ staffId: id }),
  response: z.object({ keys: z.array(z.string()), all: z.boolean() }),
});

export const assignStaffRoles = defineEndpoint({
  method: 'POST',
  path: '/staff/assignRoleIds',
  access: Permission.StaffAssignRole,
  module: 'org',
  summary: 'Replace the roles of a staff member',
  query: z.object({ staffId: id }),
  body: z.array(z.string().max(64)).max(100),
  response: z.null(),
});

/** Spec §5: one png or jpg file, uploaded first (`/file/upload`, kind signature). */
const signatureUpload = fileId
  .nullable()
  .optional()
  .describe('Id of the uploaded signature (kind signature); null removes the signature, absent keeps it');

export const saveStaff = defineEndpoint({
  method: 'POST',
  path: '/staff/save',
  access: Permission.StaffCreate,
  module: 'org',
  summary: 'Create a staff member',
  body: staffCreateForm,
  response: z.object({ id: z.string() }),
  secretFields: ['password'],
});

export const saveStaffEx = defineEndpoint({
  method: 'POST',
  path: '/staff/saveStaffEx',
  access: Permission.StaffCreate,
  module: 'org',
  summary: 'Create a staff member with roles and signature',
  body: staffCreateForm.extend({ signatureFileId: signatureUpload }),
  response: z.object({ id: z.string() }),
  secretFields: ['password'],
});

export const updateStaff = defineEndpoint({
  method: 'POST',
  path: '/staff/update',
  access: Permission.StaffUpdate,
  module: 'org',
  summary: 'Update a staff member',
  body: staffUpdateForm,
  response: z.null(),
});

export const updateStaffEx = defineEndpoint({
  method: 'POST',
  path: '/staff/updateStaffEx',
  access: Permission.StaffUpdate,
  module: 'org',
  summary: 'Update a staff member with roles and signature',
  body: staffUpdateForm.extend({ signatureFileId: signatureUpload }),
  response: z.null(),
});

export const saveOrUpdateStaff = defineEndpoint({
  method: 'POST',
  path: '/staff/saveOrUpdate',
  access: Permission.StaffUpdate,
  module: 'org',
  summary: 'Create (without id) or update (with id) a staff member; creating also needs staff.create',
  body: z.union([staffUpdateForm, staffCreateForm]),
  response: z.object({ id: z.string() }),
  secretFields: ['password'],
});

export const enableStaff = defineEndpoint({
  method: 'GET',
  path: '/staff/enable',
  access: Permission.StaffEnable,
  module: 'org',
  summary: 'Activate or disable a staff member (disabling ends the sessions)',
  query: z.object({ id, enable: z.enum(['true', 'false']).transform((v) => v === 'true') }),
  response: z.null(),
  mutating: true,
});

export const resetStaffPassword = defineEndpoint({
  method: 'GET',
  path: '/staff/resetPwd',
  access: Permission.StaffResetPassword,
  module: 'org',
  summary: 'Reset a password to a one-time password shown once; the user must change it at next sign-in',
  query: z.object({ id }),
  response: z.object({ password: z.string() }),
  mutating: true,
});

export const deleteStaff = defineEndpoint({
  method: 'GET',
  path: '/staff/del',
  access: Permission.StaffDelete,
  module: 'org',
  summary: 'Delete a staff member (not oneself, not the built-in admin)',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
