// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { type DeviceAlarmRow, LANGUAGES } from '@uiot/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CrudContext } from '../../lib/crud/index.ts';
import { installFeedbackSink } from '../../lib/feedback/feedback.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import { answer, type FakeCall, readCall, signInWith, useFakeServer } from '../../lib/test/fake-server.ts';
import { alarmRowActions } from './alarm-records.tsx';

const calls: FakeCall[] = [];
const toasts: string[] = [];
let removeSink = () => {};

beforeAll(() => {
  useFakeServer(async (input, init) => {
    calls.push(readCall(input, init));
    return answer(null);
  });
  signInWith(['alarm.read']);
});

afterEach(() => {
  removeSink();
  calls.length = 0;
  toasts.length = 0;
});

const row = {
  id: 'a1',
  deviceId: 'd1',
  deviceName: 'Gate 1',
  content: 'Door open',
  state: 'Warn',
  canReset: true,
  ackTime: null,
} as DeviceAlarmRow;
const context = { callOptions: {} } as CrudContext<DeviceAlarmRow>;

describe('alarm row actions', () => {
  for (const lang of LANGUAGES) {
    it(`say what was done to the alarm, not a generic "edited" (${lang})`, async () => {
      removeSink = installFeedbackSink({
        toast: (kind, text) => toasts.push(`${kind} ${text}`),
        notify: () => undefined,
      });
      const t = i18n.getFixedT(lang, 'alarms');
      const actions = alarmRowActions(t, new QueryClient(), () => undefined);
      const action = (key: string) => actions.find((a) => a.key === key)!;
      // No generic outcome: the kit would show "edited" or "reset" texts of its own.
      expect(actions.filter((a) => a.outcome !== undefined)).toEqual([]);

      await action('acknowledge').run(row, context);
      await action('reset').run(row, context);
      expect(calls.map((c) => `${c.path} ${c.query.id}`)).toEqual([
        '/deviceAlarm/acknowledge a1',
        '/deviceAlarm/reset a1',
      ]);
      expect(toasts).toEqual([`success ${t('done.acknowledge')}`, `success ${t('done.reset')}`]);
      const generic = [
        i18n.t('common:outcome.update.success', { lng: lang }),
        i18n.t('common:outcome.reset.success', { lng: lang }),
      ];
      for (const toast of toasts) for (const text of generic) expect(toast).not.toContain(text);
    });
  }

  it("uses the glossary's word for resetting an alarm", () => {
    expect(i18n.getFixedT('zh-CN', 'alarms')('done.reset')).toContain('复位');
    expect(i18n.getFixedT('zh-TW', 'alarms')('done.reset')).toContain('復位');
    expect(i18n.getFixedT('en', 'alarms')('done.acknowledge')).toContain('acknowledged');
  });
});
