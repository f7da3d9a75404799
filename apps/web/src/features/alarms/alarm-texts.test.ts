import { builtInAlarmKey } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { shownAlarmTexts } from './alarm-texts.ts';

const builtIn = {
  ruleName: builtInAlarmKey('uncoveredOpening'),
  content: builtInAlarmKey('uncoveredOpening'),
  deviceName: 'Gate 1',
};

describe('shownAlarmTexts', () => {
  it("shows a built-in alarm in the reader's language", () => {
    expect(shownAlarmTexts(builtIn, 'en')).toEqual({
      ruleName: 'Unauthorised opening',
      content: 'Gate 1 was opened with no lock task or fixed authorisation in force',
    });
    expect(shownAlarmTexts(builtIn, 'zh-CN')).toEqual({
      ruleName: '未授权开锁',
      content: 'Gate 1 在没有开锁任务或固定授权时被打开',
    });
  });

  it('knows a built-in alarm of the board, whose rows carry no rule name, by its content', () => {
    const { ruleName: _ruleName, ...boardRow } = builtIn;
    expect(shownAlarmTexts(boardRow, 'zh-TW').content).toBe('Gate 1 在沒有開鎖任務或固定授權時被打開');
  });

  it("passes an operator's rule through", () => {
    const ruled = { ruleName: 'Door left open', content: 'Door of Gate 1 open', deviceName: 'Gate 1' };
    expect(shownAlarmTexts(ruled, 'en')).toEqual({
      ruleName: 'Door left open',
      content: 'Door of Gate 1 open',
    });
    expect(shownAlarmTexts({ content: 'Door of Gate 1 open', deviceName: 'Gate 1' }, 'en').content).toBe(
      'Door of Gate 1 open',
    );
  });
});
