import { z } from 'zod';
import { deviceAbilities } from '../abilities.ts';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import {
  adjustValueForm,
  attachmentForm,
  batchAddForm,
  DEVICE_CATEGORIES,
  deviceForm,
  IOT_TYPES,
  lockCodeForm,
  NET_TYPES,
  OPEN_STATES,
  RUN_STATES,
} from '../validation/device-forms.ts';
import { deviceCredential } from './iot.ts';

const id = z.string().min(1).max(64);
const text = z.string().nullable();
const time = z.string().nullable();

/** A device of the ledger (spec §3 Device) with the names of what it refers to. */
const deviceData = z.object({
  id: z.string(),
  name: z.string(),
  code: text,
  sbbh: text,
  adCode: text,
  bayId: text,
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  isDrawTool: z.boolean(),
  stationId: z.string(),
  status: z.enum(RUN_STATES),
  unitId: z.string(),
  unitName: text,
  typeId: z.string(),
  typeName: text,
  /** The code of the device's type (spec §3 devTypeCode). */
  devTypeCode: text,
  /** The main type: the type itself, or the main type above a sub type. */
  mainTypeId: text,
  mainTypeName: text,
  category: z.enum(DEVICE_CATEGORIES),
  voltage: text,
  deptId: text,
  deptName: text,
  staffId: text,
  staffName: text,
  desc: text,
  extra1: text,
  extra2: text,
  graphId: text,
  idxNo: z.number().int().nullable(),
  imei: text,
  imsi: text,
  appKey: text,
  iotType: z.enum(IOT_TYPES).nullable(),
  lockStatus: z.enum(OPEN_STATES),
  mainDeviceId: text,
  netType: z.enum(NET_TYPES).nullable(),
  noState: z.boolean(),
  noWorking: z.boolean(),
  addr: text,
  secondId: text,
  kmInfo: text,
  line: text,
  track: text,
  door: text,
  regist: z.boolean(),
  registTime: time,
  appEUI: text,
  devEUI: text,
  productId: text,
  platName: text,
  camera: text,
  preSet: text,
  /** Attached devices hanging under this one. */
  attachmentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** The ledger's own data of a device: every field is also a sort key of the ledger. */
export type DeviceData = z.infer<typeof deviceData>;

/** A device of the ledger as the signed-in user sees it: its data and what the user may do with it. */
export const deviceRow = deviceData.extend({ abilities: deviceAbilities });
export type DeviceRow = z.infer<typeof deviceRow>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'v.invalid' })
  .transform((v) => v === true || v === 'true')
  .optional();

/**
 * Search of the ledger: text in name, code, IMEI or description; the unit includes the units below it;
 * the type includes its sub types. Attached devices are listed under their main device, not here.
 */
export const deviceSearch = z.object({
  keyword: z.string().trim().max(64).optional(),
  unitId: z.string().max(64).optional(),
  typeId: z.string().max(64).optional(),
  category: z.enum(DEVICE_CATEGORIES).optional(),
  iotType: z.enum(IOT_TYPES).optional(),
  regist: flag,
  deptId: z.string().max(64).optional(),
  staffId: z.string().max(64).optional(),
});
export type DeviceSearch = z.infer<typeof deviceSearch>;

export const queryDevicePage = defineEndpoint({
  method: 'GET',
  path: '/device/queryPage',
  // The ledger, and the forms that choose devices by searching it (a fixed authorisation's devices, a lock
  // task's operation items, the lock of an offline PIN or an erase code).
  access: anyOf(
    Permission.DeviceRead,
    Permission.FixedAuthorizationCreate,
    Permission.FixedAuthorizationUpdate,
    Permission.LockTaskCreate,
    Permission.LockTaskUpdate,
    Permission.PinGenerate,
    Permission.PinRevoke,
  ),
  module: 'devices',
  summary: 'Device ledger (main devices), searchable and sortable by every column, paged',
  query: pageQuery.extend(deviceSearch.shape),
  response: pageResult(deviceRow),
});

export const getDeviceById = defineEndpoint({
  method: 'GET',
  path: '/device/getById',
  access: Permission.DeviceRead,
  module: 'devices',
  summary: 'One device of the ledger',
  query: z.object({ id }),
  response: deviceRow,
});

export const saveDevice = defineEndpoint({
  method: 'POST',
  path: '/device/save',
  access: Permission.DeviceCreate,
  module: 'devices',
  summary: 'Add a device to the ledger (unregistered)',
  body: deviceForm,
  response: z.object({ id: z.string() }),
});

export const updateDevice = defineEndpoint({
  method: 'POST',
  path: '/device/update',
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Update a device of the ledger',
  body: deviceForm.extend({ id }),
  response: z.null(),
});

export const deleteDevice = defineEndpoint({
  method: 'GET',
  path: '/device/del',
  access: Permission.DeviceDelete,
  module: 'devices',
  summary:
    'Delete an unregistered device without attached devices, with its lock codes and correction values',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const batchSaveDevices = defineEndpoint({
  method: 'POST',
  path: '/device/batchSave',
  access: Permission.DeviceCreate,
  module: 'devices',
  summary: 'Add a numbered batch of devices (name prefix, description prefix, count)',
  body: batchAddForm,
  response: z.object({ ids: z.array(z.string()) }),
});

export const registerDevice = defineEndpoint({
  method: 'GET',
  path: '/device/regist',
  operatesDevice: true,
  access: Permission.DeviceRegister,
  module: 'devices',
  summary:
    'Register a device; a device with a code receives its MQTT / TcpDirect credential, shown this once',
  query: z.object({ id }),
  response: deviceCredential.nullable(),
  mutating: true,
});

export const unregisterDevice = defineEndpoint({
  method: 'GET',
  path: '/device/cancelRegist',
  operatesDevice: true,
  access: Permission.DeviceUnregister,
  module: 'devices',
  summary: 'Cancel the registration of a device',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const resetDeviceImei = defineEndpoint({
  method: 'GET',
  path: '/device/resetImei',
  operatesDevice: true,
  features: ['SupportIoT', 'ShowResetImei'],
  access: Permission.DeviceResetImei,
  module: 'devices',
  summary:
    'Clear the IMEI (and IMSI) of an unregistered device so a new module can be fitted (ShowResetImei)',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** An attached device (spec §3) under its main device. */
export const attachmentRow = z.object({
  id: z.string(),
  mainDeviceId: z.string(),
  name: z.string(),
  imei: text,
  imsi: text,
  typeId: z.string(),
  typeName: text,
  category: z.enum(DEVICE_CATEGORIES),
  iotType: z.enum(IOT_TYPES).nullable(),
  createdAt: z.string(),
});
export type AttachmentRow = z.infer<typeof attachmentRow>;

export const queryAttachments = defineEndpoint({
  method: 'GET',
  path: '/device/queryAttachments',
  features: ['SupportAttachment'],
  access: Permission.DeviceRead,
  module: 'devices',
  summary: 'Attached devices of a main device (SupportAttachment)',
  query: z.object({ mainDeviceId: id }),
  response: z.array(attachmentRow),
});

export const saveAttachment = defineEndpoint({
  method: 'POST',
  path: '/device/saveAttachment',
  features: ['SupportAttachment'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Add an attached device under a main device',
  body: attachmentForm,
  response: z.object({ id: z.string() }),
});

export const updateAttachment = defineEndpoint({
  method: 'POST',
  path: '/device/updateAttachment',
  features: ['SupportAttachment'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Update an attached device',
  body: attachmentForm.extend({ id }),
  response: z.null(),
});

export const deleteAttachment = defineEndpoint({
  method: 'GET',
  path: '/device/delAttachment',
  features: ['SupportAttachment'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Delete an attached device',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** Lock code of a device (spec §3). */
export const lockCodeRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  dnbs: text,
  rfidCode: z.string(),
  rfidType: text,
  blueAddr: text,
  effect: z.boolean(),
  effectiveTime: time,
  expirationTime: time,
  remark: text,
  createdAt: z.string(),
});
export type LockCodeRow = z.infer<typeof lockCodeRow>;

export const queryLockCodes = defineEndpoint({
  method: 'GET',
  path: '/lockCode/queryByDevice',
  features: ['SupportRfid'],
  access: Permission.DeviceRead,
  module: 'devices',
  summary: 'Lock codes of a device (SupportRfid)',
  query: z.object({ deviceId: id }),
  response: z.array(lockCodeRow),
});

export const saveLockCode = defineEndpoint({
  method: 'POST',
  path: '/lockCode/save',
  features: ['SupportRfid'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Add a lock code to a device',
  body: lockCodeForm,
  response: z.object({ id: z.string() }),
});

export const updateLockCode = defineEndpoint({
  method: 'POST',
  path: '/lockCode/update',
  features: ['SupportRfid'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Update a lock code',
  body: lockCodeForm.safeExtend({ id }),
  response: z.null(),
});

export const deleteLockCode = defineEndpoint({
  method: 'GET',
  path: '/lockCode/del',
  features: ['SupportRfid'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Delete a lock code',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** Correction (adjust) value of a device (spec §3). */
export const adjustValueRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  name: z.string(),
  value: z.number(),
  type: text,
  createdAt: z.string(),
});
export type AdjustValueRow = z.infer<typeof adjustValueRow>;

export const queryAdjustValues = defineEndpoint({
  method: 'GET',
  path: '/adjustValue/queryByDevice',
  features: ['SupportAdjustValue'],
  access: Permission.DeviceRead,
  module: 'devices',
  summary: 'Correction values of a device (SupportAdjustValue)',
  query: z.object({ deviceId: id }),
  response: z.array(adjustValueRow),
});

export const saveAdjustValue = defineEndpoint({
  method: 'POST',
  path: '/adjustValue/save',
  features: ['SupportAdjustValue'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Add a correction value to a device',
  body: adjustValueForm,
  response: z.object({ id: z.string() }),
});

export const updateAdjustValue = defineEndpoint({
  method: 'POST',
  path: '/adjustValue/update',
  features: ['SupportAdjustValue'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Update a correction value',
  body: adjustValueForm.extend({ id }),
  response: z.null(),
});

export const deleteAdjustValue = defineEndpoint({
  method: 'GET',
  path: '/adjustValue/del',
  features: ['SupportAdjustValue'],
  access: Permission.DeviceUpdate,
  module: 'devices',
  summary: 'Delete a correction value',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
