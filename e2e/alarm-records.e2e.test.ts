// Alarm records (spec §2 /data-statistics/warning-message, the monitor's historical-alarm tab, Home's
// today's alarms; docs/alarms.md): two warn rules on a lock's type raise two alarms when the lock reports
// over MQTT. A second signed-in browser sees them arrive live on Home and the bell, and later the reset. The
// bell counts them, Home lists them, the bell opens the open alarms; an operator
// acknowledges one (it stays open) and resets the other (it leaves the open alarms and reads Reset); the
// door closes and its alarm becomes Normal, the bell down to none; the lock's monitor details list both. The door
// rule notifies the administrator by app push, through a local webhook: the alarm's notifications show it sent.
// Photographed in zh-CN and en.
import { api } from '@uiot/contracts';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookSink } from '../apps/server/test/support/webhook-sink.ts';
import enAlarms from '../apps/web/src/locales/en/alarms.json' with { type: 'json' };
import zhAlarms from '../apps/web/src/locales/zh-CN/alarms.json' with { type: 'json' };
import { DOOR_OPEN, type ReportingLock, saveLockRule, useLockSuite } from './support/alarm-locks.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  clickAndAnswer,
  screenshot,
  shown,
  signIn,
  switchLanguage,
  tableRow,
  waitHomeLoaded,
} from './support/ui.ts';

const LOCK = { name: 'E2E 荃湾站B出口机房门锁', code: 'E2E-ALM-0001' };
const DOOR_TEXT = '机房门未关';
const BATTERY_TEXT = '电量低';

const push = await startWebhookSink();
const suite = await useLockSuite({ PUSH_WEBHOOK_URL: `${push.url}/push` });
const { app, browser } = suite;

afterAll(async () => {
  await push.close();
});

/**
 * The lock, registered, with two rules on its type: its door open (critical, told to the administrator by
 * app push) and its battery below 80 %.
 */
async function lockWithRules() {
  const { admin, registered, connection } = await suite.lock('E2E-ALM', LOCK);
  await saveLockRule(
    admin,
    registered.typeId,
    {
      name: 'E2E door',
      formatMsg: `{device} ${DOOR_TEXT}`,
      severity: 'critical',
      msgNotice: true,
      recipients: [{ kind: 'staff', id: 'admin' }],
    },
    DOOR_OPEN,
  );
  await saveLockRule(
    admin,
    registered.typeId,
    { name: 'E2E battery', formatMsg: `{device} ${BATTERY_TEXT} {prop:battery} %`, severity: 'minor' },
    { propCode: 'battery', propName: 'Battery', propVal: '80', valType: 'number', conditionType: 'Lt' },
  );
  return { ...registered, admin, connection };
}

/** The lock reports its door and battery (open at 76 %: both rules hold; closed at 90 %: neither). */
function report(lock: { connection: ReportingLock }, messageId: string, fault: boolean): Promise<void> {
  return lock.connection.report(
    messageId,
    fault ? { door: 'open', battery: 76 } : { door: 'closed', battery: 90 },
  );
}

const stateOf = (locator: Locator) => locator.getAttribute('data-state');
const bellCount = (page: Page) => page.getByTestId('alarm-bell').getAttribute('data-open');
const alarmRow = (page: Page, text: string) => tableRow(page, 'alarmRecords-table', text);

describe('alarm records', () => {
  it('counts, lists, acknowledges and resets the alarms a lock raises', async () => {
    const credential = await lockWithRules();
    // A second operator, signed in elsewhere, watches Home: the alarms arrive live, without a reload.
    const { page: watcher } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(watcher, 'admin', ADMIN_PASSWORD);
    await waitHomeLoaded(watcher);
    await expect.poll(() => bellCount(watcher)).toBe('0');
    await report(credential, 'e2e-alm-1', true);
    await expect.poll(() => bellCount(watcher), { timeout: 10_000 }).toBe('2');
    await expect
      .poll(() => shown(watcher.getByTestId('home-today-alarms')), { timeout: 10_000 })
      .toContain(DOOR_TEXT);
    const { admin } = credential;
    await expect
      .poll(
        async () =>
          (await admin.call(api.deviceAlarm.queryPage, { query: { deviceId: credential.deviceId } })).total,
        { timeout: 20_000 },
      )
      .toBe(2);

    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);

    // Home: today's alarms, newest first; the bell counts the two open ones.
    await waitHomeLoaded(page);
    const today = page.getByTestId('home-today-alarms');
    await expect.poll(() => page.getByTestId('home-today-alarms-total').getAttribute('data-total')).toBe('2');
    expect(await shown(today)).toContain(DOOR_TEXT);
    expect(await shown(today)).toContain(`${BATTERY_TEXT} 76 %`);
    await expect.poll(() => bellCount(page)).toBe('2');
    await today.scrollIntoViewIfNeeded();
    await screenshot(page, 'alarms-home-zh-CN');
    await page.getByTestId('alarm-bell').hover();
    await page.getByRole('tooltip').waitFor();
    await screenshot(page, 'alarms-bell-zh-CN');

    // The bell opens the open alarms.
    await page.getByTestId('alarm-bell').click();
    await page.getByTestId('alarmRecords-page').waitFor();
    expect(new URL(page.url()).searchParams.get('state')).toBe('Warn');
    const door = alarmRow(page, DOOR_TEXT);
    const battery = alarmRow(page, BATTERY_TEXT);
    await door.waitFor();
    await battery.waitFor();
    expect(await stateOf(door.getByTestId('alarm-state'))).toBe('Warn');
    expect(await door.getByTestId('alarm-severity').getAttribute('data-severity')).toBe('critical');
    expect(await shown(door)).toContain(zhAlarms.state.Warn);
    expect(await shown(battery)).toContain(zhAlarms.severity.minor);
    await screenshot(page, 'alarms-page-zh-CN');

    // Acknowledged: still open, who acknowledged shown, no second acknowledgement offered.
    // The call's answer first: a failure names itself instead of a row that never changes.
    await door.getByTestId('alarmRecords-row-acknowledge').click();
    const acknowledged = await clickAndAnswer(
      page,
      page.getByTestId('alarmRecords-confirm-ok'),
      api.deviceAlarm.acknowledge,
    );
    expect(acknowledged).toMatchObject({ success: true });
    await expect.poll(() => shown(door), { timeout: 10_000 }).toContain('admin');
    expect(await stateOf(door.getByTestId('alarm-state'))).toBe('Warn');
    expect(await door.getByTestId('alarmRecords-row-acknowledge').count()).toBe(0);
    expect(await door.getByTestId('alarmRecords-row-reset').count()).toBe(1);

    // Its notification: one app push to the administrator, sent through the webhook.
    await door.getByTestId('alarmRecords-row-notices').click();
    const notices = page.getByTestId('alarm-notices');
    await expect
      .poll(() => notices.getByTestId('alarm-notice-state').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('sent');
    expect(await shown(notices)).toContain(zhAlarms.notices.channel.push);
    expect(push.received.map((r) => JSON.parse(r.body).to)).toEqual(['admin']);
    await notices.locator('.ant-table-row-expand-icon').first().click();
    await expect.poll(() => shown(notices)).toContain('HTTP 200');
    await screenshot(page, 'alarms-notices-zh-CN');
    await page.keyboard.press('Escape');
    await notices.waitFor({ state: 'hidden' });

    // Reset: it leaves the open alarms and the bell's count.
    await battery.getByTestId('alarmRecords-row-reset').click();
    const reset = await clickAndAnswer(
      page,
      page.getByTestId('alarmRecords-confirm-ok'),
      api.deviceAlarm.reset,
    );
    expect(reset).toMatchObject({ success: true });
    await expect.poll(() => battery.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe('1');
    // The other operator sees the reset at once, too.
    await expect.poll(() => bellCount(watcher), { timeout: 10_000 }).toBe('1');

    // Every state: the reset alarm reads Reset, with who reset it.
    await page.goto('/data-statistics/warning-message');
    await battery.waitFor();
    await expect.poll(() => stateOf(battery.getByTestId('alarm-state'))).toBe('Reset');
    expect(await shown(battery)).toContain('admin');
    expect(await battery.getByTestId('alarmRecords-row-reset').count()).toBe(0);
    expect(await battery.getByTestId('alarmRecords-row-acknowledge').count()).toBe(0);

    // The door closes: its alarm becomes Normal by itself; the table shows it when refreshed, the bell on its
    // next round at the latest.
    await report(credential, 'e2e-alm-2', false);
    await expect
      .poll(
        async () =>
          (
            await admin.call(api.deviceAlarm.queryPage, {
              query: { deviceId: credential.deviceId, state: 'Warn' },
            })
          ).total,
        { timeout: 15_000 },
      )
      .toBe(0);
    await page.getByTestId('alarmRecords-refresh').click();
    await expect.poll(() => stateOf(door.getByTestId('alarm-state')), { timeout: 15_000 }).toBe('Normal');
    await expect.poll(() => bellCount(page), { timeout: 40_000 }).toBe('0');
    expect(await door.getByTestId('alarmRecords-row-reset').count()).toBe(0);

    await switchLanguage(page, 'lang-switch', 'en');
    await expect.poll(() => shown(battery)).toContain(enAlarms.state.Reset);
    await screenshot(page, 'alarms-page-en');
    await page.getByTestId('alarm-bell').hover();
    await page.getByRole('tooltip').filter({ hasText: enAlarms.bell.none }).waitFor();
    await screenshot(page, 'alarms-bell-en');

    // The lock's monitor details: its historical alarms.
    await page.goto(`/monitor/runtime/detail?deviceId=${credential.deviceId}`);
    await page.getByTestId('monitorDetail-tab-alarms').click();
    const tab = page.getByTestId('monitorAlarms-table');
    await tab.locator('tr.ant-table-row').nth(1).waitFor();
    expect(await tab.locator('tr.ant-table-row').count()).toBe(2);
    await screenshot(page, 'alarms-monitor-tab-en');
    await switchLanguage(page, 'lang-switch', 'zh-CN');
    await tab.locator('tr.ant-table-row').nth(1).waitFor();
    await screenshot(page, 'alarms-monitor-tab-zh-CN');

    await page.goto('/home');
    await waitHomeLoaded(page);
    await switchLanguage(page, 'lang-switch', 'en');
    await expect.poll(() => shown(page.getByTestId('home-today-alarms'))).toContain(enAlarms.today.title);
    await screenshot(page, 'alarms-home-en');
  });
});
