import { formatMessage, type Lang, type Translated, translateValidation } from '@uiot/contracts';

/**
 * Reasons an import row is refused that are not format rules of a form (those are the `v.*` keys of the
 * contracts): references that do not exist, values already taken, the shape of the file.
 */
export const importMessages = {
  'import.missingColumn': {
    'zh-CN': '文件中缺少此列',
    en: 'This column is missing from the file',
    'zh-TW': '檔案中缺少此欄',
  },
  'import.noRows': {
    'zh-CN': '文件中没有可导入的数据行',
    en: 'The file has no rows to import',
    'zh-TW': '檔案中沒有可匯入的資料列',
  },
  'import.tooManyRows': {
    'zh-CN': '一次最多导入 {max} 行',
    en: 'At most {max} rows can be imported at once',
    'zh-TW': '一次最多匯入 {max} 列',
  },
  'import.duplicateInFile': {
    'zh-CN': '与第 {row} 行重复',
    en: 'Same as row {row}',
    'zh-TW': '與第 {row} 列重複',
  },
  'import.taken': {
    'zh-CN': '系统中已存在',
    en: 'Already exists in the system',
    'zh-TW': '系統中已存在',
  },
  'import.unitNameTaken': {
    'zh-CN': '同一上级下已有同名操作单元',
    en: 'An operation unit of this name already exists under the same parent',
    'zh-TW': '同一上級下已有同名操作單元',
  },
  'import.unitNotFound': {
    'zh-CN': '找不到此路径的操作单元',
    en: 'No operation unit has this path',
    'zh-TW': '找不到此路徑的操作單元',
  },
  'import.parentNotFound': {
    'zh-CN': '找不到此路径的操作单元（文件中的上级须写在前面的行）',
    en: 'No operation unit has this path (a parent from the file must come in an earlier row)',
    'zh-TW': '找不到此路徑的操作單元（檔案中的上級須寫在前面的列）',
  },
  'import.typeNotFound': {
    'zh-CN': '找不到此编码的设备类型',
    en: 'No device type has this code',
    'zh-TW': '找不到此編碼的設備類型',
  },
  'import.deptNotFound': {
    'zh-CN': '找不到此名称的部门',
    en: 'No department has this name',
    'zh-TW': '找不到此名稱的部門',
  },
  'import.deptAmbiguous': {
    'zh-CN': '有多个部门使用此名称',
    en: 'Several departments have this name',
    'zh-TW': '有多個部門使用此名稱',
  },
  'import.staffNotFound': {
    'zh-CN': '找不到此名称的人员',
    en: 'No staff member has this name',
    'zh-TW': '找不到此名稱的人員',
  },
  'import.deviceNotFound': {
    'zh-CN': '找不到此编码或名称的设备',
    en: 'No device has this code or name',
    'zh-TW': '找不到此編碼或名稱的設備',
  },
  'import.deviceAmbiguous': {
    'zh-CN': '有多个设备使用此名称，请填写设备编码',
    en: 'Several devices have this name; use the device code',
    'zh-TW': '有多個設備使用此名稱，請填寫設備編碼',
  },
  'import.notMainDevice': {
    'zh-CN': '锁码只能添加到主设备',
    en: 'Lock codes go on main devices only',
    'zh-TW': '鎖碼只能添加到主設備',
  },
  'import.oneOf': {
    'zh-CN': '请填写以下值之一：{values}',
    en: 'Use one of: {values}',
    'zh-TW': '請填寫以下值之一：{values}',
  },
  'import.yesNo': {
    'zh-CN': '请填写 是 或 否',
    en: 'Enter yes or no',
    'zh-TW': '請填寫 是 或 否',
  },
} satisfies Record<string, Translated>;

export type ImportMessageKey = keyof typeof importMessages;

/** A reason as a key (`import.*` or a form's `v.*`) and its parameters, translated when answered. */
export interface Reason {
  key: ImportMessageKey | `v.${string}`;
  params?: Record<string, string | number>;
}

export function translateReason(reason: Reason, lang: Lang): string {
  if (reason.key in importMessages) {
    return formatMessage(importMessages[reason.key as ImportMessageKey][lang], reason.params);
  }
  return translateValidation(reason.key, lang, reason.params);
}
