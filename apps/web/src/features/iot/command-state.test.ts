import { LANGUAGES, SYSTEM_COMMAND_NAMES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { commandNameOf } from './command-state.tsx';

describe('commandNameOf', () => {
  it("shows every command the server makes in the reader's language, never its stored English name", () => {
    for (const lang of LANGUAGES) {
      const t = i18n.getFixedT(lang);
      for (const [cmdCode, stored] of Object.entries(SYSTEM_COMMAND_NAMES)) {
        const name = cmdCode === 'setParam' ? `${stored} heartbeatSeconds` : stored;
        const shown = commandNameOf(t, { cmdCode, name });
        expect(shown, `${lang} ${cmdCode}`).not.toBe(name);
        expect(shown, `${lang} ${cmdCode}`).not.toContain('iot:');
      }
    }
  });

  it('names the parameter a parameter command sets', () => {
    const command = { cmdCode: 'setParam', name: 'setParam heartbeatSeconds' };
    expect(commandNameOf(i18n.getFixedT('zh-CN'), command)).toBe('下发参数 heartbeatSeconds');
    expect(commandNameOf(i18n.getFixedT('en'), command)).toBe('Send parameter heartbeatSeconds');
  });

  it("shows a device type's own command as its configuration names it", () => {
    expect(commandNameOf(i18n.getFixedT('en'), { cmdCode: 'setParam', name: 'volume' })).toBe('volume');
  });
});
