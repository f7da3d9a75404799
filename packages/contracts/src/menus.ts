import { closedFeature, type FeatureFlagValues, type FeatureSwitch } from './feature-flags.ts';
import { Permission, type PermissionKey } from './permissions.ts';

/**
 * The menu catalogue (STYLE.md point 6): one list from which the sidebar, the router, the breadcrumb,
 * the tags view and the server's menu list derive. It lists only pages that exist.
 */
export interface MenuEntry {
  /** Menu name, unique: the key the server returns in the user's menu list. */
  name: string;
  /** Absolute route path; for an external link, the URL to open. */
  path: string;
  /** i18n key of the title (namespace `menu`). */
  titleKey: string;
  /** Icon name from the console's icon set. */
  icon?: string;
  /**
   * Permission needed to see the page; absent means every signed-in user. A group without one is shown when
   * one of its children is.
   */
  permission?: PermissionKey;
  /**
   * The button keys of the page (create, update, ...): the permission tree lists them under the page, and
   * the page renders each button only for holders of its key.
   */
  buttons?: readonly PermissionKey[];
  /**
   * The feature flags (spec §6) the page belongs to: while one of them is off the entry is nobody's menu (and
   * the endpoints of the page answer FeatureDisabled).
   */
  features?: readonly FeatureSwitch[];
  /** A route that exists but is not shown in the sidebar (e.g. a detail page). */
  hidden?: boolean;
  /** Pinned in the tags view; cannot be closed. */
  affix?: boolean;
  /** Opens an external address in a new window instead of a route. */
  external?: boolean;
  children?: MenuEntry[];
}

export const MENU_CATALOGUE: readonly MenuEntry[] = [
  { name: 'Home', path: '/home', titleKey: 'home', icon: 'home', affix: true },
  { name: 'Profile', path: '/profile', titleKey: 'profile', icon: 'user', hidden: true },
  {
    name: 'Device',
    path: '/device',
    titleKey: 'device',
    icon: 'hdd',
    children: [
      {
        name: 'Unit',
        path: '/device/unit',
        titleKey: 'unit',
        icon: 'cluster',
        permission: Permission.UnitRead,
        buttons: [Permission.UnitCreate, Permission.UnitUpdate, Permission.UnitDelete, Permission.UnitImport],
      },
      {
        name: 'DeviceType',
        path: '/device/device-type',
        titleKey: 'deviceType',
        icon: 'appstore',
        permission: Permission.DeviceTypeRead,
        buttons: [Permission.DeviceTypeCreate, Permission.DeviceTypeUpdate, Permission.DeviceTypeDelete],
      },
      {
        name: 'DeviceLedger',
        path: '/device/device',
        titleKey: 'deviceLedger',
        icon: 'database',
        permission: Permission.DeviceRead,
        buttons: [
          Permission.DeviceCreate,
          Permission.DeviceUpdate,
          Permission.DeviceDelete,
          Permission.DeviceRegister,
          Permission.DeviceUnregister,
          Permission.DeviceResetImei,
          Permission.DeviceReplaceLock,
          Permission.DeviceImport,
          Permission.DeviceExport,
          Permission.DeviceOpen,
        ],
      },
      {
        // The ledger by operation unit: the same permission and buttons as the ledger.
        name: 'NewLedger',
        path: '/device/new-ledger',
        titleKey: 'newLedger',
        icon: 'partition',
        permission: Permission.DeviceRead,
      },
      {
        name: 'IntervalManage',
        path: '/device/intervalManage',
        titleKey: 'intervalManage',
        icon: 'fieldTime',
        permission: Permission.IntervalRead,
        buttons: [Permission.IntervalUpdate],
        features: ['SupportIoT'],
      },
      {
        name: 'KeyLedger',
        path: '/device/key-ledger',
        titleKey: 'keyLedger',
        icon: 'key',
        permission: Permission.KeyRead,
        buttons: [Permission.KeyCreate, Permission.KeyUpdate, Permission.KeyDelete, Permission.KeyImport],
        features: ['ShowKeyInfo'],
      },
      {
        name: 'DevicePassword',
        path: '/device/device-password',
        titleKey: 'devicePassword',
        icon: 'lock',
        permission: Permission.DevicePasswordRead,
        buttons: [Permission.DevicePasswordView, Permission.DevicePasswordUpdate],
      },
    ],
  },
  {
    name: 'Monitor',
    path: '/monitor',
    titleKey: 'monitor',
    icon: 'monitor',
    children: [
      {
        name: 'MonitorRuntime',
        path: '/monitor/runtime',
        titleKey: 'monitorRuntime',
        icon: 'dashboard',
        permission: Permission.MonitorRead,
        buttons: [Permission.DeviceCommandSend],
        features: ['SupportIoT'],
      },
      {
        name: 'MonitorRuntimeDetail',
        path: '/monitor/runtime/detail',
        titleKey: 'monitorRuntimeDetail',
        permission: Permission.MonitorRead,
        features: ['SupportIoT'],
        hidden: true,
      },
    ],
  },
  {
    name: 'Task',
    path: '/task',
    titleKey: 'task',
    icon: 'lock',
    children: [
      {
        name: 'LockTask',
        path: '/task/lock-task',
        titleKey: 'lockTask',
        icon: 'key',
        permission: Permission.LockTaskRead,
        buttons: [
          Permission.LockTaskCreate,
          Permission.LockTaskUpdate,
          Permission.LockTaskDelete,
          Permission.LockTaskAudit,
          Permission.LockTaskForceEnd,
        ],
      },
      {
        name: 'FixedAuthorize',
        path: '/task/fixed-authorize',
        titleKey: 'fixedAuthorize',
        icon: 'safety',
        permission: Permission.FixedAuthorizationRead,
        buttons: [
          Permission.FixedAuthorizationCreate,
          Permission.FixedAuthorizationUpdate,
          Permission.FixedAuthorizationDelete,
        ],
      },
      {
        name: 'OperationRecords',
        path: '/task/operation-records',
        titleKey: 'operationRecords',
        icon: 'history',
        permission: Permission.OperationRecordRead,
        buttons: [Permission.OperationRecordExport],
      },
      {
        name: 'OfflinePin',
        path: '/task/offline-pins',
        titleKey: 'offlinePins',
        icon: 'number',
        permission: Permission.PinRead,
        buttons: [Permission.PinGenerate, Permission.PinRevoke],
      },
    ],
  },
  {
    name: 'DataStatistics',
    path: '/data-statistics',
    titleKey: 'dataStatistics',
    icon: 'statistics',
    children: [
      {
        name: 'IotMessage',
        path: '/data-statistics/iot-message',
        titleKey: 'iotMessage',
        icon: 'database',
        permission: Permission.IotMessageRead,
        buttons: [Permission.IotMessageExport],
        features: ['SupportIoT'],
      },
      {
        name: 'DeviceCommand',
        path: '/data-statistics/device-command',
        titleKey: 'deviceCommand',
        icon: 'control',
        permission: Permission.DeviceCommandRead,
        features: ['SupportIoT', 'ShowCmd'],
      },
      {
        name: 'WarningMessage',
        path: '/data-statistics/warning-message',
        titleKey: 'warningMessage',
        icon: 'alarm',
        permission: Permission.AlarmRead,
        buttons: [Permission.AlarmReset, Permission.AlarmAck, Permission.AlarmExport],
        // Alarms come from what IoT locks report: without IoT there are none to show.
        features: ['SupportIoT'],
      },
      {
        // The operation records of /task/operation-records among the statistics: the same permission.
        name: 'OperationRecord',
        path: '/data-statistics/operation-record',
        titleKey: 'operationRecord',
        icon: 'history',
        permission: Permission.OperationRecordRead,
      },
    ],
  },
  {
    name: 'Sys',
    path: '/sys',
    titleKey: 'sys',
    icon: 'setting',
    children: [
      {
        name: 'Department',
        path: '/sys/department',
        titleKey: 'department',
        icon: 'apartment',
        permission: Permission.DepartmentRead,
        buttons: [Permission.DepartmentCreate, Permission.DepartmentUpdate, Permission.DepartmentDelete],
      },
      {
        name: 'Role',
        path: '/sys/role',
        titleKey: 'role',
        icon: 'safety',
        permission: Permission.RoleRead,
        buttons: [Permission.RoleCreate, Permission.RoleUpdate, Permission.RoleDelete, Permission.RoleGrant],
      },
      {
        name: 'Staff',
        path: '/sys/staff',
        titleKey: 'staff',
        icon: 'team',
        permission: Permission.StaffRead,
        buttons: [
          Permission.StaffCreate,
          Permission.StaffUpdate,
          Permission.StaffDelete,
          Permission.StaffEnable,
          Permission.StaffResetPassword,
          Permission.StaffAssignRole,
        ],
      },
      {
        name: 'Client',
        path: '/sys/client',
        titleKey: 'client',
        icon: 'appstore',
        permission: Permission.ClientRead,
        buttons: [Permission.ClientReview],
      },
      {
        name: 'Params',
        path: '/sys/params',
        titleKey: 'params',
        permission: Permission.ParamRead,
        buttons: [Permission.ParamCreate, Permission.ParamUpdate, Permission.ParamDelete],
      },
      {
        name: 'WarnRule',
        path: '/sys/warn-rule',
        titleKey: 'warnRule',
        icon: 'alarm',
        permission: Permission.WarnRuleRead,
        buttons: [Permission.WarnRuleCreate, Permission.WarnRuleUpdate, Permission.WarnRuleDelete],
      },
      {
        name: 'BatteryPower',
        path: '/sys/battery-power',
        titleKey: 'batteryPower',
        icon: 'thunderbolt',
        permission: Permission.PowerLevelRead,
        buttons: [Permission.PowerLevelCreate, Permission.PowerLevelUpdate, Permission.PowerLevelDelete],
      },
      {
        name: 'Damage',
        path: '/sys/damage',
        titleKey: 'damage',
        icon: 'warning',
        permission: Permission.DamageLevelRead,
        buttons: [Permission.DamageLevelCreate, Permission.DamageLevelUpdate, Permission.DamageLevelDelete],
      },
      {
        name: 'AlarmBoard',
        path: '/sys/alarm-board',
        titleKey: 'alarmBoard',
        icon: 'dashboard',
        permission: Permission.AlarmBoardManage,
        // The board shows alarms, which come from IoT locks.
        features: ['SupportIoT'],
      },
      {
        name: 'OpLog',
        path: '/sys/oplog',
        titleKey: 'opLog',
        icon: 'history',
        permission: Permission.OpLogRead,
        buttons: [Permission.OpLogExport],
      },
      {
        name: 'LoginLog',
        path: '/sys/login-log',
        titleKey: 'loginLog',
        icon: 'login',
        permission: Permission.LoginLogRead,
        buttons: [Permission.LoginLogExport],
      },
    ],
  },
  {
    name: 'SysMessage',
    path: '/sysMessage',
    titleKey: 'sysMessage',
    icon: 'message',
    permission: Permission.RegistrationRead,
    buttons: [Permission.RegistrationReview, Permission.OutboxRead],
  },
];

/**
 * Keeps the entries a user may see: those whose features are on (`flags`: the feature flags' values), and of
 * them the open entries and those whose permission the user holds.
 */
export function permittedMenus(
  catalogue: readonly MenuEntry[],
  permissions: ReadonlySet<string>,
  flags: FeatureFlagValues,
): MenuEntry[] {
  const result: MenuEntry[] = [];
  for (const entry of catalogue) {
    if (entry.permission && !permissions.has(entry.permission)) continue;
    if (closedFeature(flags, entry.features)) continue;
    if (entry.children) {
      const children = permittedMenus(entry.children, permissions, flags);
      if (children.length === 0) continue;
      result.push({ ...entry, children });
    } else {
      result.push({ ...entry });
    }
  }
  return result;
}

/** Every entry of a tree, depth first. */
export function flattenMenus(catalogue: readonly MenuEntry[]): MenuEntry[] {
  return catalogue.flatMap((entry) => [entry, ...flattenMenus(entry.children ?? [])]);
}
