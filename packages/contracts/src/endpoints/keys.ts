import { z } from 'zod';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { devicePasswordForm, keyForm } from '../validation/device-forms.ts';
import { KEY_STATES } from '../validation/lock-task-forms.ts';

const id = z.string().min(1).max(64);

/** Electronic key (spec §3 Key); `holderDisabled` flags a key held by a disabled staff member. */
export const keyRow = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  staffId: z.string().nullable(),
  staffName: z.string().nullable(),
  holderDisabled: z.boolean(),
  deptId: z.string().nullable(),
  deptName: z.string().nullable(),
  desc: z.string().nullable(),
  state: z.enum(KEY_STATES),
  createdAt: z.string(),
});
export type KeyRow = z.infer<typeof keyRow>;

export const queryKeyPage = defineEndpoint({
  method: 'GET',
  path: '/key/queryPage',
  features: ['ShowKeyInfo'],
  // The key ledger, and the key chooser of a lock task's operation items.
  access: anyOf(Permission.KeyRead, Permission.LockTaskCreate, Permission.LockTaskUpdate),
  module: 'devices',
  summary: 'Key ledger, searchable by name or code, holder, department and state, paged',
  query: pageQuery.extend({
    keyword: z.string().trim().max(64).optional(),
    staffId: z.string().max(64).optional(),
    deptId: z.string().max(64).optional(),
    state: z.enum(KEY_STATES).optional(),
    holderDisabled: z
      .union([z.boolean(), z.enum(['true', 'false'])], { error: 'v.invalid' })
      .transform((v) => v === true || v === 'true')
      .optional(),
  }),
  response: pageResult(keyRow),
});

export const saveKey = defineEndpoint({
  method: 'POST',
  path: '/key/save',
  features: ['ShowKeyInfo'],
  access: Permission.KeyCreate,
  module: 'devices',
  summary: 'Add a key',
  body: keyForm,
  response: z.object({ id: z.string() }),
});

export const updateKey = defineEndpoint({
  method: 'POST',
  path: '/key/update',
  features: ['ShowKeyInfo'],
  access: Permission.KeyUpdate,
  module: 'devices',
  summary: 'Update a key',
  body: keyForm.extend({ id }),
  response: z.null(),
});

export const deleteKey = defineEndpoint({
  method: 'GET',
  path: '/key/del',
  features: ['ShowKeyInfo'],
  access: Permission.KeyDelete,
  module: 'devices',
  summary: 'Delete a key',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** A device with whether it has a permanent password; the password itself only comes from `view`. */
export const devicePasswordRow = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  unitName: z.string().nullable(),
  typeName: z.string().nullable(),
  imei: z.string().nullable(),
  regist: z.boolean(),
  hasPassword: z.boolean(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type DevicePasswordRow = z.infer<typeof devicePasswordRow>;

export const queryDevicePasswordPage = defineEndpoint({
  method: 'GET',
  path: '/devicePassword/queryPage',
  access: Permission.DevicePasswordRead,
  module: 'devices',
  summary: 'Devices and whether each has a permanent password (never the password), paged',
  query: pageQuery.extend({
    keyword: z.string().trim().max(64).optional(),
    unitId: z.string().max(64).optional(),
    hasPassword: z
      .union([z.boolean(), z.enum(['true', 'false'])], { error: 'v.invalid' })
      .transform((v) => v === true || v === 'true')
      .optional(),
  }),
  response: pageResult(devicePasswordRow),
});

/** Each view is written to the operation log (who and which device, never the password). */
export const viewDevicePassword = defineEndpoint({
  method: 'GET',
  path: '/devicePassword/view',
  access: Permission.DevicePasswordView,
  module: 'devices',
  summary: 'The permanent password of a device',
  query: z.object({ deviceId: id }),
  response: z.object({ password: z.string().nullable() }),
  mutating: true,
});

export const saveDevicePassword = defineEndpoint({
  method: 'POST',
  path: '/devicePassword/save',
  access: Permission.DevicePasswordUpdate,
  module: 'devices',
  summary: 'Set the permanent password of a device',
  body: devicePasswordForm,
  response: z.null(),
  secretFields: ['password'],
});
