import type { Lang, Translated } from './lang.ts';

/**
 * Result codes of the API envelope. Codes below 500 are shown with the server's (translated) message;
 * codes of 500 and above are shown by the console as its own translation followed by the code (spec §8).
 */
export const ResultCode = {
  Ok: 200,
  InvalidInput: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  Internal: 500,
  ServiceUnavailable: 503,
  LoginFailed: 1001,
  LoginLocked: 1002,
  AccountDisabled: 1003,
  SessionExpired: 1004,
  AccountPending: 1005,
  AccountRejected: 1006,
  OldPasswordWrong: 1010,
  PasswordSameAsOld: 1011,
  PasswordMismatch: 1012,
  PasswordTooWeak: 1013,
  PasswordChangeForbidden: 1014,
  PasswordChangeRequired: 1015,
  OldPasswordLocked: 1016,
  UserNotFound: 1020,
  NameTaken: 1021,
  CannotDeleteSelf: 1022,
  BuiltInAccount: 1023,
  BuiltInRole: 1024,
  GrantBeyondOwn: 1025,
  StaffHoldsKeys: 1026,
  DepartmentHasChildren: 1030,
  DepartmentHasStaff: 1031,
  DepartmentCycle: 1032,
  ParamNotEditable: 1040,
  ParamBuiltIn: 1041,
  RegistrationClosed: 1050,
  VerificationCodeInvalid: 1051,
  VerificationTooSoon: 1052,
  RegistrationHandled: 1053,
  ExportTooLarge: 1060,
  InputTooDeep: 1070,
  UnsupportedContentType: 1071,
  RequestTooLarge: 1072,
  MethodNotAllowed: 1073,
  MalformedRequest: 1074,
  RequestTimeout: 1075,
  UnitHasChildren: 1100,
  UnitCycle: 1101,
  UnitHasDevices: 1102,
  CodeTaken: 1103,
  FeatureDisabled: 1104,
  DeviceTypeNotOperable: 1105,
  DeviceRegistered: 1110,
  DeviceNotRegistered: 1111,
  DeviceAlreadyRegistered: 1112,
  DeviceHasAttachments: 1113,
  NotAMainDevice: 1114,
  UnregisterFirst: 1115,
  DeviceWithoutCode: 1116,
  CommandUnsupported: 1117,
  DeviceNotConnected: 1118,
  DeviceHasRecords: 1119,
  DeviceTypeHasChildren: 1120,
  DeviceTypeInUse: 1121,
  DeviceTypeLevel: 1122,
  ReplacementNotRegistered: 1130,
  ReplacementInvalid: 1131,
  ReplacementInProgress: 1132,
  ReplacementFinished: 1133,
  ImportInvalid: 1140,
  ImportUnreadable: 1141,
  FileTooLarge: 1170,
  FileTypeRefused: 1171,
  UploadMalformed: 1172,
  FileUnavailable: 1173,
  UploadsPending: 1174,
  PropertyBuiltIn: 1200,
  PropertyInUse: 1201,
  AlarmClosed: 1202,
  AlarmNotResettable: 1203,
  AlarmBoardCodeInvalid: 1210,
  AlarmBoardRevoked: 1211,
  LockTaskNotCreator: 1300,
  LockTaskNotAuditor: 1301,
  LockTaskSelfAudit: 1302,
  LockTaskWrongState: 1303,
  LockTaskEnded: 1304,
  LockTaskOperatorAudit: 1305,
  OpenStaffUnknown: 1310,
  OpenStaffDisabled: 1311,
  OpenKeyRequired: 1312,
  OpenKeyUnusable: 1313,
  OpenKeyNotHeld: 1314,
  OpenDeviceTypeNotGranted: 1315,
  OpenTaskNotApproved: 1316,
  OpenOutsideTaskWindow: 1317,
  OpenNotAuthorized: 1318,
  DeviceNotIot: 1319,
  ClientUnknown: 1320,
  ClientNotPassed: 1321,
  ClientRejected: 1322,
  KeyNotYours: 1323,
  PinSlotsFull: 1330,
  PinWeeklyTaken: 1331,
  PinNoSecret: 1332,
  PinNotRevocable: 1333,
  PinStartsBeforeErase: 1334,
  PinCodeNotDrawn: 1335,
  PinCodeShown: 1336,
  PinCodeNotYours: 1337,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];
export type ResultCodeName = keyof typeof ResultCode;

/** The message of every result code in every language; `{name}` parameters are filled by `formatMessage`. */
export const resultMessages: Record<ResultCodeName, Translated> = {
  Ok: { 'zh-CN': '操作成功', en: 'Success', 'zh-TW': '操作成功' },
  InvalidInput: {
    'zh-CN': '输入有误，请检查',
    en: 'Invalid input, please check',
    'zh-TW': '輸入有誤，請檢查',
  },
  Unauthenticated: {
    'zh-CN': '身份已过期，请重新登录',
    en: 'Identity expired, please log in again',
    'zh-TW': '身份已過期，請重新登入',
  },
  Forbidden: {
    'zh-CN': '没有此操作的权限，请联系管理员',
    en: 'You have no permission for this operation, please contact the administrator',
    'zh-TW': '沒有此操作的權限，請聯絡管理員',
  },
  NotFound: {
    'zh-CN': '请求的资源不存在',
    en: 'The requested resource does not exist',
    'zh-TW': '請求的資源不存在',
  },
  PayloadTooLarge: {
    'zh-CN': '提交的内容过大',
    en: 'The submitted content is too large',
    'zh-TW': '提交的內容過大',
  },
  TooManyRequests: {
    'zh-CN': '请求过于频繁，请 {seconds} 秒后再试',
    en: 'Too many requests, please try again in {seconds} s',
    'zh-TW': '請求過於頻繁，請 {seconds} 秒後再試',
  },
  Internal: { 'zh-CN': '服务器内部错误', en: 'Internal server error', 'zh-TW': '伺服器內部錯誤' },
  ServiceUnavailable: { 'zh-CN': '服务不可用', en: 'Service unavailable', 'zh-TW': '服務不可用' },
  LoginFailed: {
    'zh-CN': '用户名或密码错误',
    en: 'Incorrect username or password',
    'zh-TW': '用戶名稱或密碼錯誤',
  },
  LoginLocked: {
    'zh-CN': '登录失败次数过多，请 {seconds} 秒后再试',
    en: 'Too many failed sign-in attempts, please try again in {seconds} s',
    'zh-TW': '登入失敗次數過多，請 {seconds} 秒後再試',
  },
  AccountDisabled: {
    'zh-CN': '账号已停用，请联系管理员',
    en: 'This account is disabled, please contact the administrator',
    'zh-TW': '帳號已停用，請聯絡管理員',
  },
  AccountPending: {
    'zh-CN': '账号正在等待管理员审核',
    en: 'This account is waiting for an administrator to approve it',
    'zh-TW': '帳號正在等待管理員審核',
  },
  AccountRejected: {
    'zh-CN': '注册申请未获批准，请联系管理员',
    en: 'The registration was not approved, please contact the administrator',
    'zh-TW': '註冊申請未獲批准，請聯絡管理員',
  },
  SessionExpired: {
    'zh-CN': '身份已过期，请重新登录',
    en: 'Identity expired, please log in again',
    'zh-TW': '身份已過期，請重新登入',
  },
  OldPasswordWrong: { 'zh-CN': '原密码错误', en: 'The old password is incorrect', 'zh-TW': '原密碼錯誤' },
  OldPasswordLocked: {
    'zh-CN': '原密码错误次数过多，请 {seconds} 秒后再试',
    en: 'Too many wrong old passwords, please try again in {seconds} s',
    'zh-TW': '原密碼錯誤次數過多，請 {seconds} 秒後再試',
  },
  PasswordSameAsOld: {
    'zh-CN': '新密码不能与原密码相同',
    en: 'The new password must differ from the old one',
    'zh-TW': '新密碼不能與原密碼相同',
  },
  PasswordMismatch: {
    'zh-CN': '两次输入的密码不一致',
    en: 'The two passwords do not match',
    'zh-TW': '兩次輸入的密碼不一致',
  },
  PasswordTooWeak: {
    'zh-CN': '密码至少 8 位，且须包含大写字母、小写字母和数字',
    en: 'The password needs at least 8 characters with upper case, lower case and digits',
    'zh-TW': '密碼至少 8 位，且須包含大寫字母、小寫字母和數字',
  },
  PasswordChangeForbidden: {
    'zh-CN': '内置管理员的密码不能在此修改',
    en: 'The password of the built-in administrator cannot be changed here',
    'zh-TW': '內置管理員的密碼不能在此修改',
  },
  PasswordChangeRequired: {
    'zh-CN': '请先修改密码再使用控制台',
    en: 'Change your password before using the console',
    'zh-TW': '請先修改密碼再使用控制台',
  },
  UserNotFound: { 'zh-CN': '用户不存在', en: 'User does not exist', 'zh-TW': '用戶不存在' },
  NameTaken: {
    'zh-CN': '名称“{name}”已被使用',
    en: 'The name "{name}" is already in use',
    'zh-TW': '名稱「{name}」已被使用',
  },
  CannotDeleteSelf: {
    'zh-CN': '不能删除当前登录的用户',
    en: 'You cannot delete the user you are signed in as',
    'zh-TW': '不能刪除目前登入的用戶',
  },
  BuiltInAccount: {
    'zh-CN': '内置管理员账号不能被修改或删除',
    en: 'The built-in administrator account cannot be changed or deleted',
    'zh-TW': '內置管理員帳號不能被修改或刪除',
  },
  BuiltInRole: {
    'zh-CN': '内置管理员角色拥有全部权限，不能被修改或删除',
    en: 'The built-in admin role holds every permission and cannot be changed or deleted',
    'zh-TW': '內置管理員角色擁有全部權限，不能被修改或刪除',
  },
  GrantBeyondOwn: {
    'zh-CN': '只能授予或收回自己拥有的权限',
    en: 'You can only give or take away permissions you hold yourself',
    'zh-TW': '只能授予或收回自己擁有的權限',
  },
  StaffHoldsKeys: {
    'zh-CN': '该人员仍持有钥匙：请先收回或转交其钥匙，再删除该人员',
    en: 'This staff member still holds keys: take them back or give them to someone else before deleting',
    'zh-TW': '該人員仍持有鑰匙：請先收回或轉交其鑰匙，再刪除該人員',
  },
  DepartmentHasChildren: {
    'zh-CN': '该部门有下级部门，不能删除',
    en: 'This department has sub-departments and cannot be deleted',
    'zh-TW': '該部門有下級部門，不能刪除',
  },
  DepartmentHasStaff: {
    'zh-CN': '该部门还有 {count} 名人员，不能删除',
    en: 'This department still has {count} staff members and cannot be deleted',
    'zh-TW': '該部門還有 {count} 名人員，不能刪除',
  },
  DepartmentCycle: {
    'zh-CN': '上级部门不能是自身或其下级',
    en: 'The parent cannot be the department itself or one below it',
    'zh-TW': '上級部門不能是自身或其下級',
  },
  ParamNotEditable: {
    'zh-CN': '该参数不可修改',
    en: 'This parameter cannot be changed',
    'zh-TW': '該參數不可修改',
  },
  ParamBuiltIn: {
    'zh-CN': '内置参数不能删除',
    en: 'A built-in parameter cannot be deleted',
    'zh-TW': '內置參數不能刪除',
  },
  RegistrationClosed: {
    'zh-CN': '未开放自助注册',
    en: 'Self-registration is not open',
    'zh-TW': '未開放自助註冊',
  },
  VerificationCodeInvalid: {
    'zh-CN': '验证码错误或已过期',
    en: 'The verification code is wrong or has expired',
    'zh-TW': '驗證碼錯誤或已過期',
  },
  VerificationTooSoon: {
    'zh-CN': '验证码已发送，请 {seconds} 秒后再试',
    en: 'A code was sent already, please try again in {seconds} s',
    'zh-TW': '驗證碼已發送，請 {seconds} 秒後再試',
  },
  RegistrationHandled: {
    'zh-CN': '该注册申请已处理',
    en: 'This registration has already been handled',
    'zh-TW': '該註冊申請已處理',
  },
  ExportTooLarge: {
    'zh-CN': '导出数据过多，请缩小筛选范围',
    en: 'Too much data to export, please narrow the filter',
    'zh-TW': '匯出數據過多，請縮小篩選範圍',
  },
  InputTooDeep: {
    'zh-CN': '提交的内容嵌套层级过深（最多 {max} 层）',
    en: 'The submitted content is nested too deeply (at most {max} levels)',
    'zh-TW': '提交的內容嵌套層級過深（最多 {max} 層）',
  },
  UnsupportedContentType: {
    'zh-CN': '不支持的内容类型，请以 JSON 提交',
    en: 'Unsupported content type, please send JSON',
    'zh-TW': '不支援的內容類型，請以 JSON 提交',
  },
  RequestTooLarge: {
    'zh-CN': '请求地址或请求头过长',
    en: 'The request address or headers are too long',
    'zh-TW': '請求位址或請求標頭過長',
  },
  MethodNotAllowed: {
    'zh-CN': '该地址不接受 {method} 请求',
    en: 'This address does not accept {method} requests',
    'zh-TW': '該位址不接受 {method} 請求',
  },
  MalformedRequest: {
    'zh-CN': '请求格式不正确',
    en: 'The request is malformed',
    'zh-TW': '請求格式不正確',
  },
  RequestTimeout: {
    'zh-CN': '请求超时',
    en: 'The request timed out',
    'zh-TW': '請求逾時',
  },
  UnitHasChildren: {
    'zh-CN': '该操作单元有下级单元，不能删除',
    en: 'This operation unit has sub-units and cannot be deleted',
    'zh-TW': '該操作單元有下級單元，不能刪除',
  },
  UnitCycle: {
    'zh-CN': '上级单元不能是自身或其下级',
    en: 'The parent cannot be the operation unit itself or one below it',
    'zh-TW': '上級單元不能是自身或其下級',
  },
  UnitHasDevices: {
    'zh-CN': '该操作单元下有设备，不能删除',
    en: 'This operation unit has devices and cannot be deleted',
    'zh-TW': '該操作單元下有設備，不能刪除',
  },
  CodeTaken: {
    'zh-CN': '“{code}”已被使用',
    en: '"{code}" is already in use',
    'zh-TW': '「{code}」已被使用',
  },
  FeatureDisabled: {
    'zh-CN': '此功能已关闭（参数 {name}）',
    en: 'This function is switched off (parameter {name})',
    'zh-TW': '此功能已關閉（參數 {name}）',
  },
  DeviceTypeNotOperable: {
    'zh-CN': '你没有操作“{type}”类设备的权限，请联系管理员',
    en: 'You may not operate devices of the type "{type}"; please contact the administrator',
    'zh-TW': '你沒有操作「{type}」類設備的權限，請聯絡管理員',
  },
  DeviceRegistered: {
    'zh-CN': '已注册的设备不能删除，请先注销',
    en: 'A registered device cannot be deleted; unregister it first',
    'zh-TW': '已註冊的設備不能刪除，請先註銷',
  },
  DeviceNotRegistered: {
    'zh-CN': '设备未注册',
    en: 'The device is not registered',
    'zh-TW': '設備未註冊',
  },
  DeviceWithoutCode: {
    'zh-CN': '设备没有编码，无法签发设备密钥（LoRaWAN 与 NB-IoT 设备按 DevEUI / IMEI 识别）',
    en: 'The device has no code, so no device secret can be issued (LoRaWAN and NB-IoT devices are recognised by DevEUI / IMEI)',
    'zh-TW': '設備沒有編碼，無法簽發設備密鑰（LoRaWAN 與 NB-IoT 設備按 DevEUI / IMEI 識別）',
  },
  CommandUnsupported: {
    'zh-CN': '该设备的网络暂不支持由本系统下发指令（{network}）',
    en: "This device's network does not take commands from this system ({network})",
    'zh-TW': '該設備的網路暫不支援由本系統下發指令（{network}）',
  },
  DeviceNotConnected: {
    'zh-CN': '设备当前未连接，指令无法下发',
    en: 'The device is not connected; the command cannot be sent',
    'zh-TW': '設備目前未連線，指令無法下發',
  },
  DeviceAlreadyRegistered: {
    'zh-CN': '设备已注册，请勿重复操作',
    en: 'The device is already registered; do not repeat the operation',
    'zh-TW': '設備已註冊，請勿重複操作',
  },
  DeviceHasAttachments: {
    'zh-CN': '该设备下有附属设备，请先删除附属设备',
    en: 'This device has attached devices; delete them first',
    'zh-TW': '該設備下有附屬設備，請先刪除附屬設備',
  },
  DeviceHasRecords: {
    'zh-CN': '该设备已有告警、指令、换锁或开锁任务记录，不能删除；不再使用的设备请标记为停用',
    en: 'This device has alarm, command, replacement or lock task records and cannot be deleted; mark a device no longer used as not working instead',
    'zh-TW': '該設備已有告警、指令、換鎖或開鎖任務記錄，不能刪除；不再使用的設備請標記為停用',
  },
  NotAMainDevice: {
    'zh-CN': '附属设备只能挂在主设备下',
    en: 'Attached devices hang only under a main device',
    'zh-TW': '附屬設備只能掛在主設備下',
  },
  UnregisterFirst: {
    'zh-CN': '设备已注册，请先注销再重置 IMEI',
    en: 'The device is registered; unregister it before resetting the IMEI',
    'zh-TW': '設備已註冊，請先註銷再重設 IMEI',
  },
  DeviceTypeHasChildren: {
    'zh-CN': '该设备类型有子类型，不能删除',
    en: 'This device type has sub types and cannot be deleted',
    'zh-TW': '該設備類型有子類型，不能刪除',
  },
  DeviceTypeInUse: {
    'zh-CN': '该设备类型正在被设备使用，不能删除',
    en: 'Devices use this device type, so it cannot be deleted',
    'zh-TW': '該設備類型正在被設備使用，不能刪除',
  },
  DeviceTypeLevel: {
    'zh-CN': '子类型只能建在主类型下，且有子类型的主类型不能变为子类型',
    en: 'A sub type goes under a main type, and a main type with sub types cannot become a sub type',
    'zh-TW': '子類型只能建在主類型下，且有子類型的主類型不能變為子類型',
  },
  ReplacementNotRegistered: {
    'zh-CN': '设备未注册，不支持一键换锁',
    en: 'The device is not registered, so one-click lock replacement is not supported',
    'zh-TW': '設備未註冊，不支援一鍵換鎖',
  },
  ReplacementInvalid: {
    'zh-CN': '替换锁须为另一把未注册、未在换锁中的主设备',
    en: 'The replacement must be another unregistered main device that is not in a replacement',
    'zh-TW': '替換鎖須為另一把未註冊、未在換鎖中的主設備',
  },
  ReplacementInProgress: {
    'zh-CN': '该设备的一键换锁尚未完成',
    en: 'A lock replacement of this device is not finished yet',
    'zh-TW': '該設備的一鍵換鎖尚未完成',
  },
  ReplacementFinished: {
    'zh-CN': '该一键换锁已完成',
    en: 'This lock replacement is already complete',
    'zh-TW': '該一鍵換鎖已完成',
  },
  ImportInvalid: {
    'zh-CN': '文件有 {count} 处错误，未导入任何数据',
    en: 'The file has {count} errors; nothing was imported',
    'zh-TW': '檔案有 {count} 處錯誤，未匯入任何資料',
  },
  ImportUnreadable: {
    'zh-CN': '无法读取文件：须为 Excel（xlsx）文件且使用下载的模板',
    en: 'The file cannot be read: it must be an Excel (xlsx) file made from the downloaded template',
    'zh-TW': '無法讀取檔案：須為 Excel（xlsx）檔案且使用下載的範本',
  },
  FileTooLarge: {
    'zh-CN': '文件过大：此类文件最大 {max}',
    en: 'The file is too large: at most {max} for this kind of file',
    'zh-TW': '檔案過大：此類檔案最大 {max}',
  },
  FileTypeRefused: {
    'zh-CN': '文件内容不是允许的类型（{types}）',
    en: 'The content of the file is not of an accepted type ({types})',
    'zh-TW': '檔案內容不是允許的類型（{types}）',
  },
  UploadMalformed: {
    'zh-CN': '请以 multipart/form-data 上传一个文件，字段名为 file',
    en: 'Upload one file as multipart/form-data, in a part named file',
    'zh-TW': '請以 multipart/form-data 上傳一個檔案，欄位名稱為 file',
  },
  FileUnavailable: {
    'zh-CN': '上传的文件已失效，请重新上传',
    en: 'The uploaded file is no longer available, please upload it again',
    'zh-TW': '上傳的檔案已失效，請重新上傳',
  },
  UploadsPending: {
    'zh-CN': '尚未使用的上传文件过多，请稍后再试',
    en: 'Too many uploaded files are not used yet, please try again later',
    'zh-TW': '尚未使用的上傳檔案過多，請稍後再試',
  },
  PropertyBuiltIn: {
    'zh-CN': '协议定义的属性只能修改名称和单位，不能删除',
    en: 'A property the protocol defines keeps its code and type and cannot be removed; only its name and unit change',
    'zh-TW': '協定定義的屬性只能修改名稱和單位，不能刪除',
  },
  PropertyInUse: {
    'zh-CN': '告警规则“{rules}”使用此属性，请先修改这些规则',
    en: 'The warn rules "{rules}" test this property: change them first',
    'zh-TW': '告警規則「{rules}」使用此屬性，請先修改這些規則',
  },
  AlarmClosed: {
    'zh-CN': '该告警已复位',
    en: 'This alarm has already been reset',
    'zh-TW': '該告警已復位',
  },
  AlarmNotResettable: {
    'zh-CN': '该告警不能手动复位',
    en: 'This alarm cannot be reset by hand',
    'zh-TW': '該告警不能手動復位',
  },
  AlarmBoardCodeInvalid: {
    'zh-CN': '该告警看板链接无效、已使用或已过期，请向管理员索取新链接',
    en: 'This alarm board link is invalid, already used or expired: ask an administrator for a new one',
    'zh-TW': '該告警看板連結無效、已使用或已過期，請向管理員索取新連結',
  },
  AlarmBoardRevoked: {
    'zh-CN': '该告警看板链接已被撤销',
    en: 'This alarm board link has been revoked',
    'zh-TW': '該告警看板連結已被撤銷',
  },
  LockTaskNotCreator: {
    'zh-CN': '只有开锁任务的创建人可以这样做',
    en: "Only the lock task's creator may do this",
    'zh-TW': '只有開鎖任務的建立人可以這樣做',
  },
  LockTaskNotAuditor: {
    'zh-CN': '您不是该开锁任务的审核人',
    en: 'You are not an auditor of this lock task',
    'zh-TW': '您不是該開鎖任務的審核人',
  },
  LockTaskSelfAudit: {
    'zh-CN': '不能审核自己创建的开锁任务',
    en: 'You cannot audit a lock task you created',
    'zh-TW': '不能審核自己建立的開鎖任務',
  },
  LockTaskOperatorAudit: {
    'zh-CN': '不能审核由自己执行的开锁任务',
    en: 'You cannot audit a lock task you are to carry out',
    'zh-TW': '不能審核由自己執行的開鎖任務',
  },
  LockTaskWrongState: {
    'zh-CN': '开锁任务当前的状态不允许此操作，请刷新后查看',
    en: "The lock task's current state does not allow this; refresh to see it",
    'zh-TW': '開鎖任務目前的狀態不允許此操作，請重新整理後查看',
  },
  LockTaskEnded: {
    'zh-CN': '开锁任务的结束时间已过',
    en: "The lock task's end time has passed",
    'zh-TW': '開鎖任務的結束時間已過',
  },
  OpenStaffUnknown: {
    'zh-CN': '开锁被拒绝：人员不存在',
    en: 'Opening refused: the staff member does not exist',
    'zh-TW': '開鎖被拒絕：人員不存在',
  },
  OpenStaffDisabled: {
    'zh-CN': '开锁被拒绝：该人员已被禁用',
    en: 'Opening refused: the staff member is disabled',
    'zh-TW': '開鎖被拒絕：該人員已被停用',
  },
  OpenKeyRequired: {
    'zh-CN': '开锁被拒绝：用钥匙开锁须指明钥匙',
    en: 'Opening refused: a key opening must name its key',
    'zh-TW': '開鎖被拒絕：用鑰匙開鎖須指明鑰匙',
  },
  OpenKeyUnusable: {
    'zh-CN': '开锁被拒绝：钥匙已挂失或停用',
    en: 'Opening refused: the key is reported lost or disabled',
    'zh-TW': '開鎖被拒絕：鑰匙已掛失或停用',
  },
  OpenKeyNotHeld: {
    'zh-CN': '开锁被拒绝：钥匙不属于该人员',
    en: 'Opening refused: the key is not issued to this staff member',
    'zh-TW': '開鎖被拒絕：鑰匙不屬於該人員',
  },
  OpenDeviceTypeNotGranted: {
    'zh-CN': '开锁被拒绝：没有该设备类型的操作权限',
    en: "Opening refused: no operation grant for this device's type",
    'zh-TW': '開鎖被拒絕：沒有該設備類型的操作權限',
  },
  OpenTaskNotApproved: {
    'zh-CN': '开锁被拒绝：开锁任务尚未审核通过',
    en: 'Opening refused: the lock task is not approved yet',
    'zh-TW': '開鎖被拒絕：開鎖任務尚未審核通過',
  },
  OpenOutsideTaskWindow: {
    'zh-CN': '开锁被拒绝：不在任务或授权的时间范围内',
    en: 'Opening refused: outside the time of the task or authorisation',
    'zh-TW': '開鎖被拒絕：不在任務或授權的時間範圍內',
  },
  OpenNotAuthorized: {
    'zh-CN': '开锁被拒绝：没有开锁任务或固定授权允许该人员打开此锁',
    en: 'Opening refused: no lock task or fixed authorisation allows this staff member to open this lock',
    'zh-TW': '開鎖被拒絕：沒有開鎖任務或固定授權允許該人員打開此鎖',
  },
  DeviceNotIot: {
    'zh-CN': '只有已注册的物联网锁可以远程开关',
    en: 'Only a registered IoT lock can be opened or closed remotely',
    'zh-TW': '只有已註冊的物聯網鎖可以遠程開關',
  },
  ClientUnknown: {
    'zh-CN': '该客户端尚未注册，请先注册',
    en: 'This client is not registered: register it first',
    'zh-TW': '該用戶端尚未註冊，請先註冊',
  },
  ClientNotPassed: {
    'zh-CN': '该客户端尚未通过审核，请等待管理员审核',
    en: 'This client has not been passed yet: wait for an administrator to review it',
    'zh-TW': '該用戶端尚未通過審核，請等待管理員審核',
  },
  ClientRejected: {
    'zh-CN': '该客户端的注册已被驳回：{reason}',
    en: "This client's registration was rejected: {reason}",
    'zh-TW': '該用戶端的註冊已被駁回：{reason}',
  },
  KeyNotYours: {
    'zh-CN': '该钥匙不存在或不属于您',
    en: 'This key does not exist or is not issued to you',
    'zh-TW': '該鑰匙不存在或不屬於您',
  },
  PinSlotsFull: {
    'zh-CN': '该锁具在这一小时开始的同类动态密码已达 10 个，请换一个开始时间',
    en: 'Ten PINs of this type already start in this hour on this lock: choose another start',
    'zh-TW': '該鎖具在這一小時開始的同類動態密碼已達 10 個，請換一個開始時間',
  },
  PinWeeklyTaken: {
    'zh-CN': '该锁具已有相同周数和星期几的每周动态密码，请先停用它或换一个选择',
    en: 'This lock already has a weekly PIN of the same weeks and weekdays: disable it first or choose others',
    'zh-TW': '該鎖具已有相同週數和星期幾的每週動態密碼，請先停用它或換一個選擇',
  },
  PinNoSecret: {
    'zh-CN': '该设备尚未注册，没有动态密码密钥',
    en: 'This device is not registered and has no PIN secret',
    'zh-TW': '該設備尚未註冊，沒有動態密碼密鑰',
  },
  PinNotRevocable: {
    'zh-CN': '该动态密码已停用或已过期',
    en: 'This PIN is already disabled or expired',
    'zh-TW': '該動態密碼已停用或已過期',
  },
  PinStartsBeforeErase: {
    'zh-CN': '本小时已为该锁具生成清除码，动态密码须从下一小时开始',
    en: 'An erase code was issued for this lock in this hour: PINs must start from the next hour',
    'zh-TW': '本小時已為該鎖具生成清除碼，動態密碼須從下一小時開始',
  },
  PinCodeNotDrawn: {
    'zh-CN': '锁具尚未唤醒，永久动态密码的密码在锁具唤醒时才生成',
    en: "The lock has not woken yet: a durable PIN's code is drawn only when its lock wakes",
    'zh-TW': '鎖具尚未喚醒，永久動態密碼的密碼在鎖具喚醒時才生成',
  },
  PinCodeShown: {
    'zh-CN': '该动态密码的密码已显示过一次，不再显示',
    en: "This PIN's code has already been shown once and is not shown again",
    'zh-TW': '該動態密碼的密碼已顯示過一次，不再顯示',
  },
  PinCodeNotYours: {
    'zh-CN': '动态密码的密码只显示给生成它的人',
    en: "A PIN's code is shown only to whoever generated it",
    'zh-TW': '動態密碼的密碼只顯示給生成它的人',
  },
};

const codeNames = new Map<number, ResultCodeName>(
  Object.entries(ResultCode).map(([name, code]) => [code, name as ResultCodeName]),
);

export function resultCodeName(code: number): ResultCodeName | undefined {
  return codeNames.get(code);
}

/** Fills `{name}` parameters of a message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

export function translateResult(
  code: number,
  lang: Lang,
  params?: Record<string, string | number>,
): string | undefined {
  const name = resultCodeName(code);
  return name ? formatMessage(resultMessages[name][lang], params) : undefined;
}
