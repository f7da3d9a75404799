import { alarmTexts, type Lang } from '@uiot/contracts';

/**
 * An alarm's rule name and content as the reader of `lang` sees them, for alarms the server sends as stored
 * (today's alarms, the board and its live changes): a built-in alarm's key becomes its text in that
 * language, an operator's rule passes through. A board row has no rule name; a built-in alarm is stored
 * with its key as its content too, so the content tells.
 */
export function shownAlarmTexts(
  alarm: { ruleName?: string; content: string; deviceName: string },
  lang: Lang,
): { ruleName: string; content: string } {
  return alarmTexts({ ...alarm, ruleName: alarm.ruleName ?? alarm.content }, lang);
}
