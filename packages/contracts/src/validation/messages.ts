import { formatMessage } from '../codes.ts';
import type { Lang, Translated } from '../lang.ts';

/** The parts of a zod issue that can fill a message's parameters. */
interface IssueWithParams {
  code: string;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  params?: Record<string, unknown>;
}

/**
 * Validation messages. Schemas carry the key (`v.required`) as their zod message; the server translates it
 * for the response's field list and the console's forms translate it with the same table.
 */
export const validationMessages = {
  'v.required': { 'zh-CN': '此项为必填项', en: 'This field is required', 'zh-TW': '此項為必填項' },
  'v.invalid': { 'zh-CN': '格式不正确', en: 'Invalid format', 'zh-TW': '格式不正確' },
  'v.nul': {
    'zh-CN': '不能包含空字符（U+0000）',
    en: 'Must not contain the NUL character (U+0000)',
    'zh-TW': '不能包含空字元（U+0000）',
  },
  'v.tooLong': {
    'zh-CN': '最多 {max} 个字符',
    en: 'At most {max} characters',
    'zh-TW': '最多 {max} 個字元',
  },
  'v.email': {
    'zh-CN': '请输入正确的邮箱地址',
    en: 'Enter a valid email address',
    'zh-TW': '請輸入正確的電郵地址',
  },
  'v.mobile': {
    'zh-CN': '请输入正确的手机号码',
    en: 'Enter a valid mobile phone number',
    'zh-TW': '請輸入正確的手機號碼',
  },
  'v.username': { 'zh-CN': '请输入用户名', en: 'Enter the username', 'zh-TW': '請輸入用戶名稱' },
  'v.password': { 'zh-CN': '请输入密码', en: 'Enter the password', 'zh-TW': '請輸入密碼' },
  'v.oldPassword': { 'zh-CN': '请输入原密码', en: 'Enter the old password', 'zh-TW': '請輸入原密碼' },
  'v.newPassword': { 'zh-CN': '请输入新密码', en: 'Enter the new password', 'zh-TW': '請輸入新密碼' },
  'v.confirmPassword': {
    'zh-CN': '请再次输入新密码',
    en: 'Enter the new password again',
    'zh-TW': '請再次輸入新密碼',
  },
  'v.passwordRule': {
    'zh-CN': '密码至少 8 位，且须包含大写字母、小写字母和数字',
    en: 'At least 8 characters with upper case, lower case and digits',
    'zh-TW': '密碼至少 8 位，且須包含大寫字母、小寫字母和數字',
  },
  'v.passwordSameAsOld': {
    'zh-CN': '新密码不能与原密码相同',
    en: 'The new password must differ from the old one',
    'zh-TW': '新密碼不能與原密碼相同',
  },
  'v.passwordMismatch': {
    'zh-CN': '两次输入的密码不一致',
    en: 'The two passwords do not match',
    'zh-TW': '兩次輸入的密碼不一致',
  },
  'v.paramName': {
    'zh-CN': '参数名为 1 到 64 个字母、数字或 _ . -',
    en: 'A parameter name is 1 to 64 letters, digits or _ . -',
    'zh-TW': '參數名為 1 到 64 個字母、數字或 _ . -',
  },
  'v.timeOfDay': { 'zh-CN': '请输入时间 HH:mm', en: 'Enter a time as HH:mm', 'zh-TW': '請輸入時間 HH:mm' },
  'v.number': { 'zh-CN': '请输入数字', en: 'Enter a number', 'zh-TW': '請輸入數字' },
  'v.pageSize': {
    'zh-CN': '每页条数须在 1 到 100 之间',
    en: 'Page size must be between 1 and 100',
    'zh-TW': '每頁條數須在 1 到 100 之間',
  },
  'v.pwTooShort': { 'zh-CN': '密码至少 8 位', en: 'At least 8 characters', 'zh-TW': '密碼至少 8 位' },
  'v.pwFewClasses': {
    'zh-CN': '须包含大写字母、小写字母、数字、符号中的至少三类',
    en: 'Use at least three of: upper case, lower case, digits, symbols',
    'zh-TW': '須包含大寫字母、小寫字母、數字、符號中的至少三類',
  },
  'v.pwContainsUserName': {
    'zh-CN': '密码不能包含用户名',
    en: 'The password must not contain the user name',
    'zh-TW': '密碼不能包含用戶名稱',
  },
  'v.pwSequence': {
    'zh-CN': '密码不能包含连续字符（如 123、abc、ABC）',
    en: 'The password must not contain runs like 123, abc or ABC',
    'zh-TW': '密碼不能包含連續字元（如 123、abc、ABC）',
  },
  'v.pwDefaultUserName': {
    'zh-CN': '密码不能包含默认用户名（如 admin、root）',
    en: 'The password must not contain a default user name (such as admin or root)',
    'zh-TW': '密碼不能包含預設用戶名稱（如 admin、root）',
  },
  'v.pwCommon': {
    'zh-CN': '密码过于常见，请换一个',
    en: 'This password is too common, choose another',
    'zh-TW': '密碼過於常見，請換一個',
  },
  'v.rfid': {
    'zh-CN': '卡号须为 12 位十六进制字符',
    en: 'The card id must be 12 hexadecimal characters',
    'zh-TW': '卡號須為 12 位十六進制字元',
  },
  'v.telephone': {
    'zh-CN': '请输入正确的电话号码',
    en: 'Enter a valid telephone number',
    'zh-TW': '請輸入正確的電話號碼',
  },
  'v.integer': {
    'zh-CN': '请输入非负整数',
    en: 'Enter a whole number (0 or more)',
    'zh-TW': '請輸入非負整數',
  },
  'v.min': { 'zh-CN': '不能小于 {min}', en: 'Must be at least {min}', 'zh-TW': '不能小於 {min}' },
  'v.max': { 'zh-CN': '不能大于 {max}', en: 'Must be at most {max}', 'zh-TW': '不能大於 {max}' },
  'v.moreThan': { 'zh-CN': '须大于 {min}', en: 'Must be more than {min}', 'zh-TW': '須大於 {min}' },
  'v.lessThan': { 'zh-CN': '须小于 {max}', en: 'Must be less than {max}', 'zh-TW': '須小於 {max}' },
  'v.wholeNumber': { 'zh-CN': '请输入整数', en: 'Enter a whole number', 'zh-TW': '請輸入整數' },
  'v.wholeRange': {
    'zh-CN': '须为 {min} 到 {max} 之间的整数',
    en: 'Must be a whole number from {min} to {max}',
    'zh-TW': '須為 {min} 到 {max} 之間的整數',
  },
  'v.lngLat': {
    'zh-CN': '格式为“经度,纬度”：经度在 -180 到 180 之间，纬度在 -90 到 90 之间',
    en: 'Enter "longitude,latitude": longitude from -180 to 180, latitude from -90 to 90',
    'zh-TW': '格式為「經度,緯度」：經度在 -180 到 180 之間，緯度在 -90 到 90 之間',
  },
  'v.timeBounds': {
    'zh-CN': '时间须在 1970 年到 9999 年之间',
    en: 'The time must be between the years 1970 and 9999',
    'zh-TW': '時間須在 1970 年到 9999 年之間',
  },
  'v.range': {
    'zh-CN': '须在 {min} 到 {max} 之间',
    en: 'Must be between {min} and {max}',
    'zh-TW': '須在 {min} 到 {max} 之間',
  },
  'v.json': { 'zh-CN': '请输入合法的 JSON', en: 'Enter valid JSON', 'zh-TW': '請輸入合法的 JSON' },
  'v.homePageType': {
    'zh-CN': '首页类型须为 default 或 device',
    en: 'The home page type must be default or device',
    'zh-TW': '首頁類型須為 default 或 device',
  },
  'v.code6': {
    'zh-CN': '验证码为 6 个字符',
    en: 'The verification code has 6 characters',
    'zh-TW': '驗證碼為 6 個字元',
  },
  'v.endAfterStart': {
    'zh-CN': '结束时间须晚于开始时间',
    en: 'The end must be later than the start',
    'zh-TW': '結束時間須晚於開始時間',
  },
  'v.rangeWithinYear': {
    'zh-CN': '时间范围不能超过一年',
    en: 'The time range must not exceed one year',
    'zh-TW': '時間範圍不能超過一年',
  },
  'v.timeRangeRequired': { 'zh-CN': '请选择时间范围', en: 'Choose a time range', 'zh-TW': '請選擇時間範圍' },
  'v.ownParent': {
    'zh-CN': '上级部门不能是自身或其下级',
    en: 'The parent cannot be the department itself or one below it',
    'zh-TW': '上級部門不能是自身或其下級',
  },
  'v.longitude': {
    'zh-CN': '经度须在 -180 到 180 之间，最多 7 位小数',
    en: 'Longitude must be between -180 and 180 with at most 7 decimals',
    'zh-TW': '經度須在 -180 到 180 之間，最多 7 位小數',
  },
  'v.latitude': {
    'zh-CN': '纬度须在 -90 到 90 之间，最多 7 位小数',
    en: 'Latitude must be between -90 and 90 with at most 7 decimals',
    'zh-TW': '緯度須在 -90 到 90 之間，最多 7 位小數',
  },
  'v.imei': {
    'zh-CN': 'IMEI 须为 15 位数字',
    en: 'The IMEI must be exactly 15 digits',
    'zh-TW': 'IMEI 須為 15 位數字',
  },
  'v.imsi': {
    'zh-CN': 'IMSI 须为最多 15 位数字',
    en: 'The IMSI must be up to 15 digits',
    'zh-TW': 'IMSI 須為最多 15 位數字',
  },
  'v.eui': {
    'zh-CN': '须为 16 位十六进制字符',
    en: 'Must be 16 hexadecimal digits',
    'zh-TW': '須為 16 位十六進制字元',
  },
  'v.code': {
    'zh-CN': '编码只能包含字母、数字、_、- 和 .，且以字母或数字开头',
    en: 'A code has letters, digits, _, - and . and starts with a letter or digit',
    'zh-TW': '編碼只能包含字母、數字、_、- 和 .，且以字母或數字開頭',
  },
  'v.bluetooth': {
    'zh-CN': '蓝牙地址须为 12 位十六进制字符，如 AA:BB:CC:DD:EE:FF',
    en: 'A Bluetooth address is 12 hexadecimal digits, e.g. AA:BB:CC:DD:EE:FF',
    'zh-TW': '藍牙地址須為 12 位十六進制字元，如 AA:BB:CC:DD:EE:FF',
  },
  'v.positiveInteger': {
    'zh-CN': '请输入 1 到 2592000 之间的整数（秒）',
    en: 'Enter a whole number of seconds from 1 to 2592000',
    'zh-TW': '請輸入 1 到 2592000 之間的整數（秒）',
  },
  'v.batchCount': {
    'zh-CN': '数量须为 1 到 500 之间的整数',
    en: 'The count must be a whole number from 1 to 500',
    'zh-TW': '數量須為 1 到 500 之間的整數',
  },
  'v.devicePassword': {
    'zh-CN': '永久密码须为 6 到 12 位数字',
    en: 'A permanent password is 6 to 12 digits',
    'zh-TW': '永久密碼須為 6 到 12 位數字',
  },
  'v.fileTooLarge': {
    'zh-CN': '文件过大（最大 {max}）',
    en: 'The file is too large (at most {max})',
    'zh-TW': '檔案過大（最大 {max}）',
  },
  'v.propCode': {
    'zh-CN': '属性编码以字母开头，由字母、数字或 _ . - 组成',
    en: 'A property code starts with a letter and holds letters, digits or _ . -',
    'zh-TW': '屬性編碼以字母開頭，由字母、數字或 _ . - 組成',
  },
  'v.propValNumber': {
    'zh-CN': '该属性为数值，请输入数字',
    en: 'This property is a number: enter a number',
    'zh-TW': '該屬性為數值，請輸入數字',
  },
  'v.propValBoolean': {
    'zh-CN': '该属性为布尔值，请输入 true 或 false',
    en: 'This property is true or false: enter true or false',
    'zh-TW': '該屬性為布林值，請輸入 true 或 false',
  },
  'v.propValChoice': {
    'zh-CN': '请从以下值中选择：{values}',
    en: 'Choose one of: {values}',
    'zh-TW': '請從以下值中選擇：{values}',
  },
  'v.conditionForType': {
    'zh-CN': '文本和布尔属性只能使用“等于”',
    en: 'Text and true/false properties can only be compared with "equals"',
    'zh-TW': '文字和布林屬性只能使用「等於」',
  },
  'v.ruleItems': {
    'zh-CN': '请添加 1 到 20 个条件',
    en: 'Add 1 to 20 conditions',
    'zh-TW': '請新增 1 到 20 個條件',
  },
  'v.tooMany': {
    'zh-CN': '数量过多',
    en: 'Too many entries',
    'zh-TW': '數量過多',
  },
  'v.unknownProperty': {
    'zh-CN': '该设备类型没有此属性，请先在属性目录中添加',
    en: "The device type's catalogue has no such property: add it there first",
    'zh-TW': '該設備類型沒有此屬性，請先在屬性目錄中新增',
  },
  'v.propertyType': {
    'zh-CN': '值类型须与属性目录中的一致',
    en: "The value type must be the property's type in the catalogue",
    'zh-TW': '值類型須與屬性目錄中的一致',
  },
  'v.unknownStation': {
    'zh-CN': '站点不存在',
    en: 'This station does not exist',
    'zh-TW': '站點不存在',
  },
  'v.unknownRecipient': {
    'zh-CN': '接收人不存在',
    en: 'This recipient does not exist',
    'zh-TW': '接收人不存在',
  },
  'v.resendInterval': {
    'zh-CN': '重发间隔至少 60 秒',
    en: 'The resend interval is at least 60 seconds',
    'zh-TW': '重發間隔至少 60 秒',
  },
  'v.formatMsg.unknown': {
    'zh-CN': '未知的占位符 {name}',
    en: 'Unknown placeholder {name}',
    'zh-TW': '未知的佔位符 {name}',
  },
  'v.formatMsg.unknownProp': {
    'zh-CN': '占位符 {prop:{code}} 所指的属性不在本规则的条件中',
    en: 'The placeholder {prop:{code}} names a property that no condition of this rule uses',
    'zh-TW': '佔位符 {prop:{code}} 所指的屬性不在本規則的條件中',
  },
  'v.formatMsg.unclosed': {
    'zh-CN': '占位符缺少右花括号 }；如需显示 { 请写 {{',
    en: 'A placeholder is missing its closing }; write {{ to show {',
    'zh-TW': '佔位符缺少右花括號 }；如需顯示 { 請寫 {{',
  },
  'v.formatMsg.unopened': {
    'zh-CN': '多余的右花括号 }；如需显示 } 请写 }}',
    en: 'A } closes nothing; write }} to show }',
    'zh-TW': '多餘的右花括號 }；如需顯示 } 請寫 }}',
  },
  'v.endAboveStart': {
    'zh-CN': '结束值须大于起始值',
    en: 'The end value must be greater than the start value',
    'zh-TW': '結束值須大於起始值',
  },
  'v.percent': {
    'zh-CN': '须为 0 到 100 之间的数，最多两位小数',
    en: 'Must be a number from 0 to 100 with at most two decimals',
    'zh-TW': '須為 0 到 100 之間的數，最多兩位小數',
  },
  'v.damageValue': {
    'zh-CN': '须为 0 到 1000000 之间的数，最多两位小数',
    en: 'Must be a number from 0 to 1000000 with at most two decimals',
    'zh-TW': '須為 0 到 1000000 之間的數，最多兩位小數',
  },
  'v.levelNumber': {
    'zh-CN': '等级须为不小于 1 的整数',
    en: 'The level must be a whole number of 1 or more',
    'zh-TW': '等級須為不小於 1 的整數',
  },
  'v.levelTaken': {
    'zh-CN': '该等级已存在',
    en: 'This level already exists',
    'zh-TW': '該等級已存在',
  },
  'v.rangeOverlap': {
    'zh-CN': '区间与其他等级的区间重叠',
    en: "The range overlaps another level's range",
    'zh-TW': '區間與其他等級的區間重疊',
  },
  'v.endNotPast': {
    'zh-CN': '结束时间不能早于当前时间',
    en: 'The end time must not be earlier than now',
    'zh-TW': '結束時間不能早於目前時間',
  },
  'v.pinStartAfterEnd': {
    'zh-CN': '开始时间不能晚于结束时间',
    en: 'The start must not be later than the end',
    'zh-TW': '開始時間不能晚於結束時間',
  },
  'v.pinWeekdays': {
    'zh-CN': '请至少选择一个星期几',
    en: 'Choose at least one weekday',
    'zh-TW': '請至少選擇一個星期幾',
  },
  'v.pinOnceLength': {
    'zh-CN': '单次动态密码从开始的整点起有效 2 小时，结束时间不能更晚',
    en: 'A once PIN is valid for 2 hours from its start hour: the end cannot be later',
    'zh-TW': '單次動態密碼從開始的整點起有效 2 小時，結束時間不能更晚',
  },
  'v.pinPeriodLength': {
    'zh-CN': '时段动态密码从开始的整点起有效 4 小时，结束时间不能更晚',
    en: 'A time-period PIN is valid for 4 hours from its start hour: the end cannot be later',
    'zh-TW': '時段動態密碼從開始的整點起有效 4 小時，結束時間不能更晚',
  },
  'v.pinNonWorking': {
    'zh-CN': '时段动态密码的 4 小时须在非工作时间内（工作时间为周一至周五 8:00–18:00）',
    en: 'The 4 hours of a time-period PIN must lie outside working hours (Monday–Friday 8:00–18:00)',
    'zh-TW': '時段動態密碼的 4 小時須在非工作時間內（工作時間為週一至週五 8:00–18:00）',
  },
  'v.pinWeeks': {
    'zh-CN': '每周动态密码最多覆盖 {max} 周',
    en: 'A weekly PIN covers at most {max} weeks',
    'zh-TW': '每週動態密碼最多覆蓋 {max} 週',
  },
  'v.pinLorawanOnly': {
    'zh-CN': '自定义算法经 LoRaWAN 下发动态密码：请选择 LoRaWAN 锁具，或使用 TOTP',
    en: 'The custom algorithm sends the PIN over LoRaWAN: choose a LoRaWAN lock, or TOTP',
    'zh-TW': '自訂算法經 LoRaWAN 下發動態密碼：請選擇 LoRaWAN 鎖具，或使用 TOTP',
  },
  'v.pinWindowPast': {
    'zh-CN': '该动态密码的有效时段已过',
    en: "The PIN's window is already over",
    'zh-TW': '該動態密碼的有效時段已過',
  },
  'v.taskOperators': {
    'zh-CN': '请至少选择一名作业人员',
    en: 'Choose at least one operator',
    'zh-TW': '請至少選擇一名作業人員',
  },
  'v.taskItems': {
    'zh-CN': '请至少添加一个操作项，或选择全部设备',
    en: 'Add at least one operation item, or choose all devices',
    'zh-TW': '請至少新增一個操作項，或選擇全部設備',
  },
  'v.authorizationDevices': {
    'zh-CN': '请至少选择一个设备，或选择全部设备',
    en: 'Choose at least one device, or all devices',
    'zh-TW': '請至少選擇一個設備，或選擇全部設備',
  },
  'v.unknownObject': {
    'zh-CN': '该人员或部门不存在',
    en: 'No such staff member or department',
    'zh-TW': '該人員或部門不存在',
  },
  'v.unknownDevice': {
    'zh-CN': '该设备不存在',
    en: 'No such device',
    'zh-TW': '該設備不存在',
  },
  'v.unknownKey': {
    'zh-CN': '该钥匙不存在',
    en: 'No such key',
    'zh-TW': '該鑰匙不存在',
  },
  'v.unknownTask': {
    'zh-CN': '该开锁任务不存在',
    en: 'No such lock task',
    'zh-TW': '該開鎖任務不存在',
  },
  'v.registeredIdentity': {
    'zh-CN': '设备已注册，不能修改此项；请先注销',
    en: 'Cannot change while the device is registered; unregister it first',
    'zh-TW': '設備已註冊，不能修改此項；請先註銷',
  },
  'v.taskAuditor': {
    'zh-CN': '请选择有审核权限的其他人员（不能是创建人或执行人员）',
    en: 'Choose someone who may audit lock tasks, other than its creator and operators',
    'zh-TW': '請選擇有審核權限的其他人員（不能是建立人或執行人員）',
  },
  'v.notFuture': {
    'zh-CN': '不能晚于当前时间',
    en: 'Cannot be later than now',
    'zh-TW': '不能晚於目前時間',
  },
  'v.duplicateItem': {
    'zh-CN': '不能重复选择',
    en: 'Chosen more than once',
    'zh-TW': '不能重複選擇',
  },
} satisfies Record<string, Translated>;

export type ValidationMessageKey = keyof typeof validationMessages;

export function isValidationMessageKey(key: string): key is ValidationMessageKey {
  return key in validationMessages;
}

/** Translates a validation key; an unknown text is returned as it is. */
export function translateValidation(
  key: string,
  lang: Lang,
  params?: Record<string, string | number>,
): string {
  return isValidationMessageKey(key) ? formatMessage(validationMessages[key][lang], params) : key;
}

/**
 * The `{name}` parameters of a zod issue's message: a limit gives `max` (or `min`), a refinement the
 * `params` it added (such as the unknown placeholder of a formatMsg). Server and console both translate
 * with it, so one refinement's parameters reach every reader.
 */
export function issueParams(issue: IssueWithParams): Record<string, string | number> | undefined {
  if (issue.code === 'too_big' && issue.maximum !== undefined) return { max: Number(issue.maximum) };
  if (issue.code === 'too_small' && issue.minimum !== undefined) return { min: Number(issue.minimum) };
  if (issue.code !== 'custom' || !issue.params) return undefined;
  const entries = Object.entries(issue.params).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A zod issue as far as `distinctIssues` reads it. */
interface ComparableIssue extends IssueWithParams {
  path: readonly PropertyKey[];
  message: string;
}

const isNumericBound = (issue: ComparableIssue) =>
  (issue.code === 'too_big' || issue.code === 'too_small') &&
  ['number', 'int', 'bigint'].includes(String(issue.origin));

/** Whether `other`, on the same field, is a tighter bound of the same side than `issue`. */
function tighter(other: ComparableIssue, issue: ComparableIssue): boolean {
  if (other.code !== issue.code || !isNumericBound(other)) return false;
  return issue.code === 'too_big'
    ? Number(other.maximum) < Number(issue.maximum)
    : Number(other.minimum) > Number(issue.minimum);
}

/**
 * One issue per field and rule: a number above two maximums (the range of `.int()` and the field's own) is
 * told the tighter one only, and an issue saying the same as an earlier one of its field is left out.
 */
export function distinctIssues<T extends ComparableIssue>(issues: readonly T[]): T[] {
  const fieldOf = (issue: ComparableIssue) => issue.path.map(String).join('.');
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const field = fieldOf(issue);
    if (isNumericBound(issue) && issues.some((o) => o !== issue && fieldOf(o) === field && tighter(o, issue)))
      return false;
    const said = `${field}\u0000${issue.message}\u0000${JSON.stringify(issueParams(issue) ?? {})}`;
    if (seen.has(said)) return false;
    seen.add(said);
    return true;
  });
}
