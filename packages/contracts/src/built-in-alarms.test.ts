import { describe, expect, it } from 'vitest';
import { alarmTexts, builtInAlarmKey, builtInAlarmOf } from './built-in-alarms.ts';
import { LANGUAGES } from './lang.ts';

describe('built-in alarms', () => {
  it('are known by their stored key, and an operator rule by its own name', () => {
    expect(builtInAlarmOf(builtInAlarmKey('uncoveredOpening'))).toBe('uncoveredOpening');
    expect(builtInAlarmOf('Low battery')).toBeNull();
    expect(builtInAlarmOf('builtin.noSuchAlarm')).toBeNull();
    expect(builtInAlarmOf('builtin.toString')).toBeNull();
  });

  it("show in the reader's language with the device, an operator's alarm as written", () => {
    const stored = {
      ruleName: 'builtin.uncoveredOpening',
      content: 'builtin.uncoveredOpening',
      deviceName: 'Gate 3',
    };
    for (const lang of LANGUAGES) {
      const texts = alarmTexts(stored, lang);
      expect(texts.content).toContain('Gate 3');
      expect(texts.ruleName).not.toContain('builtin');
    }
    expect(alarmTexts(stored, 'en')).toEqual({
      ruleName: 'Unauthorised opening',
      content: 'Gate 3 was opened with no lock task or fixed authorisation in force',
    });
    const own = { ruleName: 'Low battery', content: 'Gate 3 battery 5 %', deviceName: 'Gate 3' };
    expect(alarmTexts(own, 'zh-CN')).toEqual({ ruleName: 'Low battery', content: 'Gate 3 battery 5 %' });
  });
});
