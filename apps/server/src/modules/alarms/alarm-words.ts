import type { AlarmSeverity, AlarmState, Translated } from '@uiot/contracts';

/**
 * The words of an alarm's state and severity where the server writes them itself (exports, notifications),
 * the same as the console's (`alarms.json`: `state.*`, `severity.*`).
 */
export const STATE_TEXT: Record<AlarmState, Translated> = {
  Warn: { 'zh-CN': '告警', en: 'Warn', 'zh-TW': '告警' },
  Normal: { 'zh-CN': '正常', en: 'Normal', 'zh-TW': '正常' },
  Reset: { 'zh-CN': '已复位', en: 'Reset', 'zh-TW': '已復位' },
};

export const SEVERITY_TEXT: Record<AlarmSeverity, Translated> = {
  critical: { 'zh-CN': '紧急', en: 'Critical', 'zh-TW': '緊急' },
  major: { 'zh-CN': '重要', en: 'Major', 'zh-TW': '重要' },
  minor: { 'zh-CN': '次要', en: 'Minor', 'zh-TW': '次要' },
  warning: { 'zh-CN': '提示', en: 'Warning', 'zh-TW': '提示' },
};
