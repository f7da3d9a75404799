import type { Lang, Translated } from './lang.ts';

/**
 * Alarms the system raises by itself, not by an operator's warn rule: stored with no rule, their rule name
 * the built-in's key (`builtin.{name}`) and their content its name too, so that every reader shows them in
 * its own language ({@link alarmTexts}).
 */
export const BUILT_IN_ALARMS = {
  /** A lock reported an opening that no lock task or fixed authorisation in force covered. */
  uncoveredOpening: {
    name: { 'zh-CN': '未授权开锁', en: 'Unauthorised opening', 'zh-TW': '未授權開鎖' },
    content: {
      'zh-CN': '{device} 在没有开锁任务或固定授权时被打开',
      en: '{device} was opened with no lock task or fixed authorisation in force',
      'zh-TW': '{device} 在沒有開鎖任務或固定授權時被打開',
    },
  },
  /** Wrong PINs entered on a lock's keypad locked it out (docs/offline-pins.md): someone may be guessing. */
  pinLockout: {
    name: { 'zh-CN': '动态密码输错锁定', en: 'PIN lock-out', 'zh-TW': '動態密碼輸錯鎖定' },
    content: {
      'zh-CN': '{device} 连续输错动态密码，键盘已锁定',
      en: '{device} locked its keypad after wrong PINs',
      'zh-TW': '{device} 連續輸錯動態密碼，鍵盤已鎖定',
    },
  },
} as const satisfies Record<string, { name: Translated; content: Translated }>;
export type BuiltInAlarm = keyof typeof BUILT_IN_ALARMS;

const PREFIX = 'builtin.';

/** What a built-in alarm is stored with as its rule name and content. */
export const builtInAlarmKey = (alarm: BuiltInAlarm): string => `${PREFIX}${alarm}`;

/** The built-in alarm a stored rule name stands for, or null for an operator's rule. */
export function builtInAlarmOf(ruleName: string): BuiltInAlarm | null {
  if (!ruleName.startsWith(PREFIX)) return null;
  const name = ruleName.slice(PREFIX.length);
  return Object.hasOwn(BUILT_IN_ALARMS, name) ? (name as BuiltInAlarm) : null;
}

/** An alarm's rule name and content as a reader of `lang` sees them: a built-in's in that language. */
export function alarmTexts(
  alarm: { ruleName: string; content: string; deviceName: string },
  lang: Lang,
): { ruleName: string; content: string } {
  const builtIn = builtInAlarmOf(alarm.ruleName);
  if (!builtIn) return { ruleName: alarm.ruleName, content: alarm.content };
  const texts = BUILT_IN_ALARMS[builtIn];
  return {
    ruleName: texts.name[lang],
    content: texts.content[lang].replace('{device}', alarm.deviceName),
  };
}
