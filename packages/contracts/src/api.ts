import type { Endpoint } from './endpoint.ts';
import * as alarmBoard from './endpoints/alarm-board.ts';
import * as alarms from './endpoints/alarms.ts';
import * as clients from './endpoints/clients.ts';
import * as commands from './endpoints/commands.ts';
import * as devices from './endpoints/devices.ts';
import * as files from './endpoints/files.ts';
import * as fixedAuthorizations from './endpoints/fixed-authorizations.ts';
import * as home from './endpoints/home.ts';
import * as iot from './endpoints/iot.ts';
import * as keys from './endpoints/keys.ts';
import * as ledger from './endpoints/ledger.ts';
import * as levels from './endpoints/levels.ts';
import * as lockTasks from './endpoints/lock-tasks.ts';
import * as logs from './endpoints/logs.ts';
import * as operationRecords from './endpoints/operation-records.ts';
import * as org from './endpoints/org.ts';
import * as params from './endpoints/params.ts';
import * as pins from './endpoints/pins.ts';
import * as realtime from './endpoints/realtime.ts';
import * as registration from './endpoints/registration.ts';
import * as replacement from './endpoints/replacement.ts';
import * as staff from './endpoints/staff.ts';
import * as staffSession from './endpoints/staff-session.ts';
import * as system from './endpoints/system.ts';
import * as transfer from './endpoints/transfer.ts';
import * as warnRules from './endpoints/warn-rules.ts';

/** Every endpoint of the API, grouped by module. The server registers exactly these. */
export const api = {
  system: {
    health: system.health,
    ready: system.ready,
    getStationCode: system.getStationCode,
    getSupportMultiLanguage: system.getSupportMultiLanguage,
    getLoginParams: system.getLoginParams,
    getFeatureFlags: system.getFeatureFlags,
  },
  auth: {
    loginCheck: staffSession.loginCheck,
    logout: staffSession.logout,
    queryMenuRight: staffSession.queryMenuRight,
    isFirstLogin: staffSession.isFirstLogin,
    changePwd: staffSession.changePwd,
    getUserInfo: staffSession.getUserInfo,
    updateMyInfo: staffSession.updateMyInfo,
  },
  home: {
    getHomeOverview: home.getHomeOverview,
    getTodayWarn: alarms.getTodayWarn,
    getTodayDeviceOp: operationRecords.getTodayDeviceOp,
    getTodayTask: lockTasks.getTodayTask,
  },
  department: {
    getTree: org.getDepartmentTree,
    save: org.saveDepartment,
    update: org.updateDepartment,
    del: org.deleteDepartment,
  },
  role: {
    queryPage: org.queryRolePage,
    getAll: org.getAllRoles,
    save: org.saveRole,
    update: org.updateRole,
    del: org.deleteRole,
  },
  permission: {
    getGrants: org.getGrants,
    saveGrants: org.saveGrants,
  },
  staff: {
    getAll: staff.getAllStaff,
    getById: staff.getStaffById,
    getRoleIds: staff.getStaffRoleIds,
    getSignatureById: staff.getStaffSignature,
    queryByDeptId: staff.queryStaffByDept,
    queryPage: staff.queryStaffPage,
    queryPageByName: staff.queryStaffPageByName,
    queryStaffResTree: staff.queryStaffResTree,
    assignRoleIds: staff.assignStaffRoles,
    save: staff.saveStaff,
    saveStaffEx: staff.saveStaffEx,
    saveOrUpdate: staff.saveOrUpdateStaff,
    update: staff.updateStaff,
    updateStaffEx: staff.updateStaffEx,
    enable: staff.enableStaff,
    resetPwd: staff.resetStaffPassword,
    del: staff.deleteStaff,
  },
  registration: {
    sendVerificationCode: registration.sendVerificationCode,
    verifyVerificationCode: registration.verifyVerificationCode,
    userRegister: registration.userRegister,
    querySysMessagePage: registration.querySysMessagePage,
    reviewRegistration: registration.reviewRegistration,
    queryOutboxPage: registration.queryOutboxPage,
  },
  file: {
    upload: files.uploadFile,
  },
  unit: {
    getTree: devices.getUnitTree,
    save: devices.saveUnit,
    update: devices.updateUnit,
    del: devices.deleteUnit,
    importTemplate: transfer.unitImportTemplate,
    import: transfer.importUnits,
  },
  deviceType: {
    getTree: devices.getDeviceTypeTree,
    save: devices.saveDeviceType,
    update: devices.updateDeviceType,
    del: devices.deleteDeviceType,
    updateInterval: devices.updateInterval,
  },
  device: {
    queryPage: ledger.queryDevicePage,
    getById: ledger.getDeviceById,
    save: ledger.saveDevice,
    update: ledger.updateDevice,
    del: ledger.deleteDevice,
    batchSave: ledger.batchSaveDevices,
    regist: ledger.registerDevice,
    cancelRegist: ledger.unregisterDevice,
    resetImei: ledger.resetDeviceImei,
    resetSecret: iot.resetDeviceSecret,
    resetPinSecret: iot.resetPinSecret,
    queryAttachments: ledger.queryAttachments,
    saveAttachment: ledger.saveAttachment,
    updateAttachment: ledger.updateAttachment,
    delAttachment: ledger.deleteAttachment,
    importTemplate: transfer.deviceImportTemplate,
    import: transfer.importDevices,
    export: transfer.exportDevices,
  },
  lockCode: {
    queryByDevice: ledger.queryLockCodes,
    save: ledger.saveLockCode,
    update: ledger.updateLockCode,
    del: ledger.deleteLockCode,
  },
  adjustValue: {
    queryByDevice: ledger.queryAdjustValues,
    save: ledger.saveAdjustValue,
    update: ledger.updateAdjustValue,
    del: ledger.deleteAdjustValue,
  },
  lockReplacement: {
    start: replacement.startReplacement,
    proceed: replacement.proceedReplacement,
    getByDevice: replacement.getReplacement,
  },
  key: {
    queryPage: keys.queryKeyPage,
    save: keys.saveKey,
    update: keys.updateKey,
    del: keys.deleteKey,
    importTemplate: transfer.keyImportTemplate,
    import: transfer.importKeys,
  },
  devicePassword: {
    queryPage: keys.queryDevicePasswordPage,
    view: keys.viewDevicePassword,
    save: keys.saveDevicePassword,
  },
  params: {
    del: params.deleteParam,
    getById: params.getParamById,
    getByName: params.getParamByName,
    getAll: params.getAllParams,
    getMap: params.getParamMap,
    getADCode: params.getADCode,
    getLngLat: params.getLngLat,
    getMarkerSearchDistance: params.getMarkerSearchDistance,
    getMobileAppRegist: params.getMobileAppRegist,
    getTaskNeedAudit: params.getTaskNeedAudit,
    queryPageByName: params.queryParamPageByName,
    save: params.saveParam,
    update: params.updateParam,
    saveOrUpdate: params.saveOrUpdateParam,
  },
  powerLevel: {
    queryPage: levels.queryPowerLevelPage,
    getAll: levels.getAllPowerLevels,
    save: levels.savePowerLevel,
    update: levels.updatePowerLevel,
    del: levels.deletePowerLevel,
    batteryBands: levels.getBatteryBands,
  },
  damageLevel: {
    queryPage: levels.queryDamageLevelPage,
    getAll: levels.getAllDamageLevels,
    save: levels.saveDamageLevel,
    update: levels.updateDamageLevel,
    del: levels.deleteDamageLevel,
  },
  lockTask: {
    queryPage: lockTasks.queryLockTaskPage,
    getById: lockTasks.getLockTask,
    save: lockTasks.saveLockTask,
    update: lockTasks.updateLockTask,
    submit: lockTasks.submitLockTask,
    pass: lockTasks.passLockTask,
    reject: lockTasks.rejectLockTask,
    cancel: lockTasks.cancelLockTask,
    forceEnd: lockTasks.forceEndLockTask,
    del: lockTasks.deleteLockTask,
  },
  fixedAuthorization: {
    queryPage: fixedAuthorizations.queryFixedAuthorizationPage,
    save: fixedAuthorizations.saveFixedAuthorization,
    update: fixedAuthorizations.updateFixedAuthorization,
    del: fixedAuthorizations.deleteFixedAuthorization,
  },
  pin: {
    queryPage: pins.queryPinPage,
    generate: pins.generatePin,
    showCode: pins.showPinCode,
    revoke: pins.revokePin,
    eraseCode: pins.generateEraseCode,
  },
  client: {
    register: clients.registerClient,
    state: clients.getClientState,
    login: clients.clientLogin,
    queryPage: clients.queryClientPage,
    review: clients.reviewClient,
    del: clients.deleteClient,
    downloadTasks: clients.downloadTasks,
    uploadRecords: clients.uploadRecords,
  },
  operationRecord: {
    queryPage: operationRecords.queryOperationRecordPage,
    export: operationRecords.exportOperationRecords,
    photo: operationRecords.getOperationPhoto,
    remoteOpen: operationRecords.remoteOpenDevice,
    remoteClose: operationRecords.remoteCloseDevice,
  },
  runtime: {
    ingestStats: iot.getIngestStats,
    queryPage: iot.queryRuntimePage,
    getByDeviceId: iot.getRuntimeByDeviceId,
    summary: iot.getRuntimeSummary,
  },
  nbiot: {
    chinaTelecom: iot.chinaTelecomCallback,
    chinaUnicom: iot.chinaUnicomCallback,
    chinaMobile: iot.chinaMobileCallback,
  },
  deviceHistory: {
    queryPage: iot.queryDeviceHistoryPage,
    export: iot.exportDeviceHistory,
  },
  deviceCommand: {
    queryPage: commands.queryDeviceCommandPage,
    sendParam: commands.sendDeviceParam,
  },
  realtime: {
    getBrokerLogin: realtime.getBrokerLogin,
  },
  deviceProperty: {
    queryByType: warnRules.queryDeviceProperties,
    save: warnRules.saveDeviceProperty,
    update: warnRules.updateDeviceProperty,
    del: warnRules.deleteDeviceProperty,
  },
  warnRule: {
    queryPage: warnRules.queryWarnRulePage,
    save: warnRules.saveWarnRule,
    update: warnRules.updateWarnRule,
    del: warnRules.deleteWarnRule,
    noticeChannels: warnRules.getNoticeChannels,
  },
  deviceAlarm: {
    queryPage: alarms.queryDeviceAlarmPage,
    openCount: alarms.getOpenAlarmCount,
    export: alarms.exportDeviceAlarms,
    reset: alarms.resetDeviceAlarm,
    acknowledge: alarms.acknowledgeDeviceAlarm,
    notices: alarms.queryAlarmNotices,
  },
  alarmBoard: {
    queryPage: alarmBoard.queryAlarmBoardLinkPage,
    stations: alarmBoard.getAlarmBoardStations,
    save: alarmBoard.saveAlarmBoardLink,
    newCode: alarmBoard.newAlarmBoardCode,
    revoke: alarmBoard.revokeAlarmBoardLink,
    exchange: alarmBoard.exchangeAlarmBoardCode,
    openAlarms: alarmBoard.getAlarmBoard,
    brokerLogin: alarmBoard.getAlarmBoardBrokerLogin,
  },
  logs: {
    queryOpLogPage: logs.queryOpLogPage,
    exportOpLog: logs.exportOpLog,
    queryLoginLogPage: logs.queryLoginLogPage,
    exportLoginLog: logs.exportLoginLog,
  },
} as const;

// Marked pure so that a bundle not using ALL_ENDPOINTS drops it, and with it every endpoint of `api` it
// does not use: the console's first page imports the few endpoints it calls by name.
export const ALL_ENDPOINTS: readonly Endpoint[] = /* @__PURE__ */ Object.values(api).flatMap(
  (group) => Object.values(group) as Endpoint[],
);
