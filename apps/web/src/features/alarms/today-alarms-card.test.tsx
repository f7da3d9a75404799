// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { builtInAlarmKey, type DeviceAlarmRow } from '@uiot/contracts';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { answeringServer, type FakeCall, signInWith, useFakeServer } from '../../lib/test/fake-server.ts';
import { renderPage } from '../../lib/test/render-page.tsx';
import { TodayAlarmsCard } from './today-alarms-card.tsx';

/** Today's alarms come as stored: a built-in alarm's key is shown in the reader's language. */

const calls: FakeCall[] = [];

const alarm = (id: string, ruleName: string, content: string): DeviceAlarmRow => ({
  id,
  deviceId: 'd1',
  deviceName: 'Gate 1',
  deviceCode: null,
  ruleId: null,
  ruleName,
  content,
  severity: 'critical',
  propOrigin: null,
  propName: null,
  state: 'Warn',
  canReset: true,
  warnTime: '2026-01-01T01:00:00.000Z',
  resetTime: null,
  resetStaffName: null,
  ackTime: null,
  ackStaffName: null,
  sendCount: 0,
});

const ROWS = [
  alarm('a1', builtInAlarmKey('uncoveredOpening'), builtInAlarmKey('uncoveredOpening')),
  alarm('a2', 'Door left open', 'Door of Gate 1 left open'),
];

beforeAll(() =>
  useFakeServer(answeringServer({ '/fp/getTodayWarn': { total: ROWS.length, rows: ROWS } }, calls)),
);

beforeEach(() => {
  calls.length = 0;
  signInWith(['alarm.read']);
});

afterEach(() => cleanup());

const render = () =>
  renderPage(
    <MemoryRouter>
      <TodayAlarmsCard />
    </MemoryRouter>,
  );

describe('TodayAlarmsCard', { timeout: 30_000 }, () => {
  it('shows a built-in alarm in English, and an operator rule as it is', async () => {
    await i18n.changeLanguage('en');
    render();
    const card = await screen.findByTestId('home-today-alarms');
    await waitFor(() =>
      expect(
        within(card).getByText('Gate 1 was opened with no lock task or fixed authorisation in force'),
      ).toBeTruthy(),
    );
    expect(within(card).getByText('Door of Gate 1 left open')).toBeTruthy();
    expect(within(card).queryByText(builtInAlarmKey('uncoveredOpening'))).toBeNull();
  });

  it('shows a built-in alarm in Chinese to a zh-CN reader', async () => {
    await i18n.changeLanguage('zh-CN');
    render();
    const card = await screen.findByTestId('home-today-alarms');
    await waitFor(() =>
      expect(within(card).getByText('Gate 1 在没有开锁任务或固定授权时被打开')).toBeTruthy(),
    );
  });
});
