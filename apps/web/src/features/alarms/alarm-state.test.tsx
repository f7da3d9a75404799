import { ALARM_SEVERITIES, ALARM_STATES, type AlarmState } from '@uiot/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { alarmActions } from './alarm-state.ts';
import { AlarmSeverityTag, AlarmStateTag } from './alarm-tags.tsx';

const ACKED = '2026-11-26T08:00:00.000Z';

describe('alarmActions', () => {
  it('offers acknowledge and reset on an open alarm that can be reset and is not acknowledged', () => {
    expect(alarmActions({ state: 'Warn', canReset: true, ackTime: null })).toEqual({
      acknowledge: true,
      reset: true,
    });
  });

  it('offers reset only where the server says the alarm can be reset', () => {
    expect(alarmActions({ state: 'Warn', canReset: false, ackTime: null })).toEqual({
      acknowledge: true,
      reset: false,
    });
  });

  it('does not offer acknowledge twice, but still reset', () => {
    expect(alarmActions({ state: 'Warn', canReset: true, ackTime: ACKED })).toEqual({
      acknowledge: false,
      reset: true,
    });
  });

  it.each(['Normal', 'Reset'] as const)('offers nothing on a closed alarm (%s)', (state: AlarmState) => {
    expect(alarmActions({ state, canReset: true, ackTime: null })).toEqual({
      acknowledge: false,
      reset: false,
    });
  });
});

describe('alarm tags', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('colours the states: Warn red, Normal green, Reset grey', () => {
    const html = (state: AlarmState) => renderToStaticMarkup(<AlarmStateTag state={state} />);
    expect(html('Warn')).toMatch(/ant-tag-red/);
    expect(html('Warn')).toContain('>Warn<');
    expect(html('Normal')).toMatch(/ant-tag-green/);
    expect(html('Reset')).not.toMatch(/ant-tag-(red|green)/);
    expect(html('Reset')).toContain('data-state="Reset"');
  });

  it('names every state and severity in every language', async () => {
    for (const lang of ['zh-CN', 'en', 'zh-TW']) {
      await i18n.changeLanguage(lang);
      for (const state of ALARM_STATES) {
        expect(renderToStaticMarkup(<AlarmStateTag state={state} />)).not.toContain('state.');
      }
      for (const severity of ALARM_SEVERITIES) {
        expect(renderToStaticMarkup(<AlarmSeverityTag severity={severity} />)).not.toContain('severity.');
      }
    }
    await i18n.changeLanguage('zh-CN');
    expect(renderToStaticMarkup(<AlarmStateTag state="Reset" />)).toContain('已复位');
  });
});
