/**
 * Permission keys (`resource.action`). Every API route declares one of these, or is open to every signed-in
 * user, or is on the explicit public list (see endpoint.ts). Role `admin` holds every key.
 * Menu keys (`*.read`) open a page; the others are its buttons (see the menu catalogue).
 */
export const Permission = {
  DepartmentRead: 'department.read',
  DepartmentCreate: 'department.create',
  DepartmentUpdate: 'department.update',
  DepartmentDelete: 'department.delete',
  RoleRead: 'role.read',
  RoleCreate: 'role.create',
  RoleUpdate: 'role.update',
  RoleDelete: 'role.delete',
  RoleGrant: 'role.grant',
  StaffRead: 'staff.read',
  StaffCreate: 'staff.create',
  StaffUpdate: 'staff.update',
  StaffDelete: 'staff.delete',
  StaffEnable: 'staff.enable',
  StaffResetPassword: 'staff.resetPassword',
  StaffAssignRole: 'staff.assignRole',
  ParamRead: 'param.read',
  ParamCreate: 'param.create',
  ParamUpdate: 'param.update',
  ParamDelete: 'param.delete',
  OpLogRead: 'oplog.read',
  OpLogExport: 'oplog.export',
  LoginLogRead: 'loginlog.read',
  LoginLogExport: 'loginlog.export',
  RegistrationRead: 'registration.read',
  RegistrationReview: 'registration.review',
  OutboxRead: 'outbox.read',
  UnitRead: 'unit.read',
  UnitCreate: 'unit.create',
  UnitUpdate: 'unit.update',
  UnitDelete: 'unit.delete',
  UnitImport: 'unit.import',
  DeviceTypeRead: 'deviceType.read',
  DeviceTypeCreate: 'deviceType.create',
  DeviceTypeUpdate: 'deviceType.update',
  DeviceTypeDelete: 'deviceType.delete',
  DeviceRead: 'device.read',
  DeviceCreate: 'device.create',
  DeviceUpdate: 'device.update',
  DeviceDelete: 'device.delete',
  DeviceRegister: 'device.register',
  DeviceUnregister: 'device.unregister',
  DeviceResetImei: 'device.resetImei',
  DeviceReplaceLock: 'device.replaceLock',
  DeviceImport: 'device.import',
  DeviceExport: 'device.export',
  IntervalRead: 'interval.read',
  IntervalUpdate: 'interval.update',
  KeyRead: 'key.read',
  KeyCreate: 'key.create',
  KeyUpdate: 'key.update',
  KeyDelete: 'key.delete',
  KeyImport: 'key.import',
  DevicePasswordRead: 'devicePassword.read',
  DevicePasswordView: 'devicePassword.view',
  DevicePasswordUpdate: 'devicePassword.update',
  IotMessageRead: 'iotMessage.read',
  IotMessageExport: 'iotMessage.export',
  DeviceCommandRead: 'deviceCommand.read',
  DeviceCommandSend: 'deviceCommand.send',
  MonitorRead: 'monitor.read',
  WarnRuleRead: 'warnRule.read',
  WarnRuleCreate: 'warnRule.create',
  WarnRuleUpdate: 'warnRule.update',
  WarnRuleDelete: 'warnRule.delete',
  AlarmRead: 'alarm.read',
  AlarmReset: 'alarm.reset',
  AlarmAck: 'alarm.ack',
  AlarmExport: 'alarm.export',
  AlarmBoardManage: 'alarmBoard.manage',
  PowerLevelRead: 'powerLevel.read',
  PowerLevelCreate: 'powerLevel.create',
  PowerLevelUpdate: 'powerLevel.update',
  PowerLevelDelete: 'powerLevel.delete',
  DamageLevelRead: 'damageLevel.read',
  DamageLevelCreate: 'damageLevel.create',
  DamageLevelUpdate: 'damageLevel.update',
  DamageLevelDelete: 'damageLevel.delete',
  FixedAuthorizationRead: 'fixedAuthorization.read',
  FixedAuthorizationCreate: 'fixedAuthorization.create',
  FixedAuthorizationUpdate: 'fixedAuthorization.update',
  FixedAuthorizationDelete: 'fixedAuthorization.delete',
  LockTaskRead: 'lockTask.read',
  LockTaskCreate: 'lockTask.create',
  LockTaskUpdate: 'lockTask.update',
  LockTaskDelete: 'lockTask.delete',
  LockTaskAudit: 'lockTask.audit',
  LockTaskForceEnd: 'lockTask.forceEnd',
  DeviceOpen: 'device.open',
  OperationRecordRead: 'operationRecord.read',
  OperationRecordExport: 'operationRecord.export',
  PinRead: 'pin.read',
  PinGenerate: 'pin.generate',
  PinRevoke: 'pin.revoke',
  ClientRead: 'client.read',
  ClientReview: 'client.review',
  AppTaskDownload: 'app.taskDownload',
  AppRecordUpload: 'app.recordUpload',
} as const;
export type PermissionKey = (typeof Permission)[keyof typeof Permission];
export const ALL_PERMISSIONS: readonly PermissionKey[] = Object.values(Permission);

export function isPermissionKey(value: string): value is PermissionKey {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/**
 * Resource types of the permission tree (spec §6): Web (menus and their buttons), App (mobile app
 * functions), Sys (system functions) and DevTypeOp (operations per device type). Subjects of a grant are
 * roles, staff members or departments.
 */
export const RESOURCE_TYPES = ['Web', 'App', 'Sys', 'DevTypeOp'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const GRANT_SUBJECTS = ['Role', 'Staff', 'Department'] as const;
export type GrantSubject = (typeof GRANT_SUBJECTS)[number];

/**
 * A DevTypeOp grant (spec §6): operating devices of one device type, `devTypeOp:{deviceTypeId}`. These keys
 * are granted like the others; which operations they open comes with the device commands.
 */
export const DEV_TYPE_OP_PREFIX = 'devTypeOp:';
export const devTypeOpKey = (deviceTypeId: string) => `${DEV_TYPE_OP_PREFIX}${deviceTypeId}`;
export function devTypeOfKey(key: string): string | null {
  return key.startsWith(DEV_TYPE_OP_PREFIX) && key.length > DEV_TYPE_OP_PREFIX.length
    ? key.slice(DEV_TYPE_OP_PREFIX.length)
    : null;
}

/**
 * App resources (spec §6 resource type App): what a mobile or PC client may do for its staff member,
 * granted like the console's keys and shown in their own branch of the permission tree.
 */
export const APP_RESOURCES: readonly PermissionKey[] = [
  Permission.AppTaskDownload,
  Permission.AppRecordUpload,
];

/** The id of the built-in administrator account and of the role that holds every permission. */
export const ADMIN_STAFF_ID = 'admin';
export const ADMIN_ROLE_ID = 'admin';
