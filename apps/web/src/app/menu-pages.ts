import type { PageLoader } from './lazy-page.ts';

/** The operation records are one page under two menus (tasks, data statistics). */
const operationRecordsPage: PageLoader = () =>
  import('../features/tasks/operation-records-page.tsx').then((module) => module.OperationRecordsPage);

/**
 * The page of each menu catalogue entry, by the entry's `name`. Routes are generated from the catalogue
 * entries the user may open; each loads its page on first visit.
 */
export const MENU_PAGES: Readonly<Record<string, PageLoader>> = {
  Home: () => import('../features/home/home-page.tsx').then((module) => module.HomePage),
  Profile: () => import('../features/profile/profile-page.tsx').then((module) => module.ProfilePage),
  Unit: () => import('../features/devices/units-page.tsx').then((module) => module.UnitsPage),
  DeviceType: () =>
    import('../features/devices/device-types-page.tsx').then((module) => module.DeviceTypesPage),
  DeviceLedger: () =>
    import('../features/devices/ledger/ledger-page.tsx').then((module) => module.LedgerPage),
  NewLedger: () =>
    import('../features/devices/ledger/unit-ledger-page.tsx').then((module) => module.UnitLedgerPage),
  IntervalManage: () =>
    import('../features/devices/intervals-page.tsx').then((module) => module.IntervalsPage),
  KeyLedger: () => import('../features/devices/keys-page.tsx').then((module) => module.KeysPage),
  DevicePassword: () =>
    import('../features/devices/device-passwords-page.tsx').then((module) => module.DevicePasswordsPage),
  Department: () => import('../features/org/departments-page.tsx').then((module) => module.DepartmentsPage),
  Role: () => import('../features/org/roles-page.tsx').then((module) => module.RolesPage),
  Staff: () => import('../features/org/staff-page.tsx').then((module) => module.StaffPage),
  Client: () => import('../features/clients/clients-page.tsx').then((module) => module.ClientsPage),
  Params: () => import('../features/params/params-page.tsx').then((module) => module.ParamsPage),
  WarnRule: () => import('../features/alarms/warn-rules-page.tsx').then((module) => module.WarnRulesPage),
  BatteryPower: () =>
    import('../features/levels/power-levels-page.tsx').then((module) => module.PowerLevelsPage),
  Damage: () => import('../features/levels/damage-levels-page.tsx').then((module) => module.DamageLevelsPage),
  AlarmBoard: () =>
    import('../features/alarms/alarm-board-links-page.tsx').then((module) => module.AlarmBoardLinksPage),
  OpLog: () => import('../features/logs/op-log-page.tsx').then((module) => module.OpLogPage),
  LoginLog: () => import('../features/logs/login-log-page.tsx').then((module) => module.LoginLogPage),
  MonitorRuntime: () => import('../features/monitor/runtime-page.tsx').then((module) => module.RuntimePage),
  MonitorRuntimeDetail: () =>
    import('../features/monitor/device-detail-page.tsx').then((module) => module.DeviceDetailPage),
  IotMessage: () => import('../features/iot/iot-message-page.tsx').then((module) => module.IotMessagePage),
  DeviceCommand: () =>
    import('../features/iot/device-command-page.tsx').then((module) => module.DeviceCommandPage),
  WarningMessage: () =>
    import('../features/alarms/alarm-records-page.tsx').then((module) => module.AlarmRecordsPage),
  LockTask: () => import('../features/tasks/lock-tasks-page.tsx').then((module) => module.LockTasksPage),
  FixedAuthorize: () =>
    import('../features/tasks/fixed-authorizations-page.tsx').then(
      (module) => module.FixedAuthorizationsPage,
    ),
  OperationRecords: operationRecordsPage,
  OperationRecord: operationRecordsPage,
  OfflinePin: () => import('../features/pins/offline-pins-page.tsx').then((module) => module.OfflinePinsPage),
  SysMessage: () =>
    import('../features/sys-message/sys-message-page.tsx').then((module) => module.SysMessagePage),
};
