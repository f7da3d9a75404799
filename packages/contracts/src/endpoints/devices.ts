import { z } from 'zod';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { Permission } from '../permissions.ts';
import {
  DEVICE_CATEGORIES,
  type DeviceCategory,
  deviceTypeForm,
  intervalForm,
  unitForm,
} from '../validation/device-forms.ts';

const id = z.string().min(1).max(64);

/** Operation unit (spec §3), with its sub-units. */
export interface UnitNode {
  id: string;
  name: string;
  menuName: string | null;
  parentId: string | null;
  sortIndex: number;
  stationId: string;
  typeId: string | null;
  desc: string | null;
  children: UnitNode[];
}
export const unitNode: z.ZodType<UnitNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    menuName: z.string().nullable(),
    parentId: z.string().nullable(),
    sortIndex: z.number().int(),
    stationId: z.string(),
    typeId: z.string().nullable(),
    desc: z.string().nullable(),
    children: z.array(unitNode),
  }),
);

export const getUnitTree = defineEndpoint({
  method: 'GET',
  path: '/unit/getTree',
  // The pages that show or choose an operation unit: units, the device ledgers, monitoring, device passwords.
  access: anyOf(
    Permission.UnitRead,
    Permission.DeviceRead,
    Permission.MonitorRead,
    Permission.DevicePasswordRead,
  ),
  module: 'devices',
  summary: 'Operation unit tree (for pages and unit selectors)',
  response: z.array(unitNode),
});

export const saveUnit = defineEndpoint({
  method: 'POST',
  path: '/unit/save',
  access: Permission.UnitCreate,
  module: 'devices',
  summary: 'Create an operation unit',
  body: unitForm,
  response: z.object({ id: z.string() }),
});

export const updateUnit = defineEndpoint({
  method: 'POST',
  path: '/unit/update',
  access: Permission.UnitUpdate,
  module: 'devices',
  summary: 'Update an operation unit',
  body: unitForm.extend({ id }),
  response: z.null(),
});

export const deleteUnit = defineEndpoint({
  method: 'GET',
  path: '/unit/del',
  access: Permission.UnitDelete,
  module: 'devices',
  summary: 'Delete an operation unit without sub-units',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** Device type (main type, or sub type under it) with the intervals of the IoT pipeline. */
export interface DeviceTypeNode {
  id: string;
  name: string;
  code: string;
  parentId: string | null;
  category: DeviceCategory;
  reportInterval: number;
  heartbeatInterval: number;
  sortIndex: number;
  desc: string | null;
  /** Devices of this type (not counting sub types). */
  deviceCount: number;
  children: DeviceTypeNode[];
}
export const deviceTypeNode: z.ZodType<DeviceTypeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    code: z.string(),
    parentId: z.string().nullable(),
    category: z.enum(DEVICE_CATEGORIES),
    reportInterval: z.number().int(),
    heartbeatInterval: z.number().int(),
    sortIndex: z.number().int(),
    desc: z.string().nullable(),
    deviceCount: z.number().int(),
    children: z.array(deviceTypeNode),
  }),
);

export const getDeviceTypeTree = defineEndpoint({
  method: 'GET',
  path: '/deviceType/getTree',
  // The pages that show or choose a device type: device types, intervals, the device ledgers, monitoring,
  // warn rules, and the permission dialog (DevTypeOp grants).
  access: anyOf(
    Permission.DeviceTypeRead,
    Permission.IntervalRead,
    Permission.DeviceRead,
    Permission.MonitorRead,
    Permission.WarnRuleRead,
    Permission.RoleGrant,
  ),
  module: 'devices',
  summary: 'Device types: main types with their sub types (for pages, selectors and the permission tree)',
  response: z.array(deviceTypeNode),
});

export const saveDeviceType = defineEndpoint({
  method: 'POST',
  path: '/deviceType/save',
  access: Permission.DeviceTypeCreate,
  module: 'devices',
  summary: 'Create a device type (a sub type when parentId names a main type)',
  body: deviceTypeForm,
  response: z.object({ id: z.string() }),
});

export const updateDeviceType = defineEndpoint({
  method: 'POST',
  path: '/deviceType/update',
  access: Permission.DeviceTypeUpdate,
  module: 'devices',
  summary: 'Update a device type',
  body: deviceTypeForm.extend({ id }),
  response: z.null(),
});

export const deleteDeviceType = defineEndpoint({
  method: 'GET',
  path: '/deviceType/del',
  access: Permission.DeviceTypeDelete,
  module: 'devices',
  summary: 'Delete a device type without sub types and devices',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const updateInterval = defineEndpoint({
  method: 'POST',
  path: '/deviceType/updateInterval',
  features: ['SupportIoT'],
  access: Permission.IntervalUpdate,
  module: 'devices',
  summary: 'Set the reporting and heartbeat intervals (seconds) of a device type',
  body: intervalForm,
  response: z.null(),
});
