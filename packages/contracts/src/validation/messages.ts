import { formatMessage } from '../codes.ts';
import type { Lang, Translated } from '../lang.ts';

/**
 * Validation messages. Schemas carry the key (`v.required`) as their zod message; the server translates it
 * for the response's field list and the console's forms translate it with the same table.
 */
export const validationMessages = {
  'v.required': { 'zh-CN': '此项为必填项', en: 'This field is required', 'zh-TW': '此項為必填項' },
  'v.invalid': { 'zh-CN': '格式不正确', en: 'Invalid format', 'zh-TW': '格式不正確' },
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
  'v.number': { 'zh-CN': '请输入数字', en: 'Enter a number', 'zh-TW': '請輸入數字' },
  'v.pageSize': {
    'zh-CN': '每页条数须在 1 到 100 之间',
    en: 'Page size must be between 1 and 100',
    'zh-TW': '每頁條數須在 1 到 100 之間',
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
