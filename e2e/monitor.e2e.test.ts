// The runtime monitor (spec §2 /monitor/runtime and /monitor/runtime/detail, §4 Realtime): a lock registered
// through the API reports over MQTT; its row, the counters and its monitor details follow each report
// without a reload. The embedded broker is then killed: its supervisor restarts it, the page's live tag goes
// to reconnecting and back to live by itself, the lock reconnects, and its next report shows again without
// a reload. Photographed in zh-CN and en. A user whose role reads runtime data only follows the lock live as
// well, and sees no error for the device commands the broker does not send them.
import { api, type DeviceCredential, Permission, translateValidation } from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import { embeddedBrokerPid } from '../apps/server/test/support/processes.ts';
import enMonitor from '../apps/web/src/locales/en/monitor.json' with { type: 'json' };
import zhCommon from '../apps/web/src/locales/zh-CN/common.json' with { type: 'json' };
import zhMonitor from '../apps/web/src/locales/zh-CN/monitor.json' with { type: 'json' };
import { adminApi, ledgerDevices, staffHolding } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  fieldError,
  screenshot,
  shown,
  signIn,
  switchLanguage,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const MQTT_PORT = await freePort();
/** A long Chinese name: the table cell and the details head must cut it, not break the layout. */
const LOCK = { name: 'E2E 荃湾站B出口通信机房智能门锁（东侧设备间第二道防护门）', code: 'E2E-MON-0001' };
/** Registered but silent: every state unknown, no battery, offline. */
const SILENT = { name: 'E2E 备用锁', code: 'E2E-MON-0002' };
/** Set on the page's window once: a reload or a navigation away would lose it. */
const MARKER = '__monitorE2eMarker';

const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });
const locks: MqttClient[] = [];

afterAll(async () => {
  await Promise.all(locks.map((lock) => lock.endAsync(true).catch(() => undefined)));
});

/** Registered locks in a unit and type of their own (`typeCode`); the credential of the first. */
async function registerLocks(
  typeCode = 'E2E-MON',
  devices: ReadonlyArray<{ name: string; code: string }> = [LOCK, SILENT],
  names?: { unit: string; type: string },
): Promise<DeviceCredential & { deviceId: string }> {
  const admin = await adminApi(app.apiUrl);
  const ids = await ledgerDevices(admin, typeCode, devices, names);
  const credentials = await Promise.all(
    ids.map((id) => admin.call(api.device.regist, { query: { id: id } })),
  );
  if (!credentials[0]) throw new Error('the lock got no credential');
  return { ...credentials[0], deviceId: ids[0]! };
}

/** The lock as a device: signs in with its credential and comes back by itself after a broker restart. */
async function connectLock(credential: DeviceCredential): Promise<MqttClient> {
  const lock = await connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, {
    protocolVersion: 4,
    clientId: `dev-${credential.username}`,
    username: credential.username,
    password: credential.secret,
    reconnectPeriod: 500,
  });
  locks.push(lock);
  return lock;
}

function report(
  lock: MqttClient,
  credential: DeviceCredential,
  messageId: string,
  door: 'open' | 'closed',
): Promise<unknown> {
  const payload = encodeNativeReport({
    messageId,
    event: 'doorChanged',
    lock: 'closed',
    door,
    battery: 76,
    rssi: -71,
    props: { temperature: 23.5, firmware: 'v2.4.1' },
  });
  return lock.publishAsync(`dev/${credential.stationId}/${credential.username}/up`, payload, { qos: 1 });
}

function lockRow(page: Page, name: string): Locator {
  return tableRow(page, 'monitorRuntime-table', name);
}

const stateOf = (locator: Locator) => locator.getAttribute('data-state');
const liveState = (page: Page) => stateOf(page.getByTestId('monitor-live'));
const counter = (page: Page, key: string) =>
  page.getByTestId(`monitor-summary-${key}`).getAttribute('data-value');
/** Whether the page is still the one the test opened: no reload, no navigation away. */
const sameDocument = (page: Page) => page.evaluate((marker) => (window as never)[marker] === 'kept', MARKER);

describe('runtime monitor', () => {
  it('follows a lock live, through a restart of the broker, without reloading', async () => {
    const credential = await registerLocks();
    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/monitor/runtime');
    await page.getByTestId('monitorRuntime-page').waitFor();
    await expect.poll(() => liveState(page), { timeout: 20_000 }).toBe('live');
    await page.evaluate((marker) => {
      (window as unknown as Record<string, string>)[marker] = 'kept';
    }, MARKER);

    const row = lockRow(page, LOCK.name);
    const door = row.getByTestId('monitorRuntime-door');
    await row.waitFor();
    expect(await stateOf(door)).toBe('unknown');
    expect(await counter(page, 'total')).toBe('2');
    await lockRow(page, SILENT.name).waitFor();

    // The lock reports its door closed, then open: the row and the counters follow.
    const lock = await connectLock(credential);
    await report(lock, credential, 'e2e-mon-1', 'closed');
    await expect.poll(() => stateOf(door), { timeout: 10_000 }).toBe('closed');
    expect(await stateOf(row.getByTestId('monitorRuntime-online'))).toBe('true');
    await expect.poll(() => counter(page, 'online'), { timeout: 10_000 }).toBe('1');
    expect(await shown(row)).toContain(zhMonitor.openState.closed);
    await screenshot(page, 'monitor-runtime-zh-CN');

    await report(lock, credential, 'e2e-mon-2', 'open');
    await expect.poll(() => stateOf(door), { timeout: 10_000 }).toBe('open');
    await expect.poll(() => counter(page, 'doorOpen'), { timeout: 10_000 }).toBe('1');
    expect(await sameDocument(page)).toBe(true);

    // The broker dies; its supervisor starts it again and the page resubscribes by itself.
    const brokerPid = embeddedBrokerPid(app.server);
    expect(brokerPid).toBeDefined();
    process.kill(brokerPid as number, 'SIGKILL');
    await expect.poll(() => liveState(page), { timeout: 15_000, interval: 100 }).toBe('reconnecting');
    await expect.poll(() => liveState(page), { timeout: 45_000 }).toBe('live');
    const restarted = embeddedBrokerPid(app.server);
    expect(restarted).toBeDefined();
    expect(restarted).not.toBe(brokerPid);

    // The lock comes back and reports again (the same message until it is heard: ingest is idempotent).
    await expect.poll(() => lock.connected, { timeout: 30_000 }).toBe(true);
    await expect
      .poll(
        async () => {
          await report(lock, credential, 'e2e-mon-3', 'closed').catch(() => undefined);
          return stateOf(door);
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('closed');
    await expect.poll(() => counter(page, 'doorOpen'), { timeout: 10_000 }).toBe('0');
    expect(await sameDocument(page)).toBe(true);

    // The device's name leads to its monitor details, live too.
    await row.getByTestId('monitorRuntime-device').click();
    await page.getByTestId('monitorDetail-page').waitFor();
    const detailDoor = page.getByTestId('monitorDetail-door');
    expect(await stateOf(detailDoor)).toBe('closed');
    await report(lock, credential, 'e2e-mon-4', 'open');
    await expect.poll(() => stateOf(detailDoor), { timeout: 10_000 }).toBe('open');
    expect(await sameDocument(page)).toBe(true);
    await page.getByTestId('monitorLockCodes-page').waitFor();
    await screenshot(page, 'monitor-detail-zh-CN');

    await page.getByTestId('monitorDetail-tab-collection').click();
    const collection = page.getByTestId('monitorCollection');
    await collection.waitFor();
    await expect.poll(() => shown(collection), { timeout: 10_000 }).toContain('v2.4.1');
    expect(await shown(collection)).toContain('23.5');
    await screenshot(page, 'monitor-detail-collection-zh-CN');

    await page.getByTestId('monitorDetail-tab-messages').click();
    await expect
      .poll(() => page.getByTestId('monitorMessages-table').locator('tr.ant-table-row').count(), {
        timeout: 10_000,
      })
      .toBe(4);
    // Param config: the contract's schema checks the form; a parameter sent shows in the device's commands.
    await page.getByTestId('monitorDetail-tab-params').click();
    await page.getByTestId('monitorParam').waitFor();
    await page.getByTestId('monitorParam-send').click();
    await expect.poll(() => shown(fieldError(page, 'monitorParam-name'))).not.toBe('');
    await page.getByTestId('monitorParam-name').fill('volume');
    await page.getByTestId('monitorParam-value').fill('3');
    await page.getByTestId('monitorParam-send').click();
    await toast(page, zhCommon.outcome.sendCommand.success).waitFor();
    const sent = page.getByTestId('monitorCommands-table').locator('tr.ant-table-row');
    await expect.poll(() => sent.count(), { timeout: 10_000 }).toBe(1);
    expect(await shown(sent)).toContain('volume');
    await sent.getByTestId('monitorCommands-state').waitFor();
    await screenshot(page, 'monitor-detail-params-zh-CN');
    // A period parameter's end must come after its start: nothing is sent otherwise.
    await page.getByTestId('monitorParam-kind').getByText(zhMonitor.param.kindPeriod).click();
    for (const [field, time] of [
      ['monitorParam-start', '10:00'],
      ['monitorParam-end', '09:30'],
    ] as const) {
      const input = page.locator(`[data-testid="${field}"] input, input[data-testid="${field}"]`).first();
      await input.click();
      await input.fill(time);
      await input.press('Enter');
    }
    await page.getByTestId('monitorParam-send').click();
    await expect
      .poll(() => shown(fieldError(page, 'monitorParam-end')))
      .toBe(translateValidation('v.endAfterStart', 'zh-CN'));
    expect(await sent.count()).toBe(1);

    await switchLanguage(page, 'lang-switch', 'en');
    await page.getByTestId('monitorDetail-page').getByText(enMonitor.detail.tab.params).waitFor();
    await expect
      .poll(() => shown(fieldError(page, 'monitorParam-end')))
      .toBe(translateValidation('v.endAfterStart', 'en'));
    await screenshot(page, 'monitor-detail-params-en');
    await page.getByTestId('monitorDetail-tab-collection').click();
    await page.getByTestId('monitorCollection').waitFor();
    await screenshot(page, 'monitor-detail-en');

    await page.getByTestId('monitorDetail-back').click();
    await page.getByTestId('monitorRuntime-page').waitFor();
    await page.getByTestId('monitor-summary').getByText(enMonitor.runtime.summary.doorOpen).waitFor();
    await expect
      .poll(() => stateOf(lockRow(page, LOCK.name).getByTestId('monitorRuntime-door')))
      .toBe('open');
    expect(await shown(lockRow(page, SILENT.name))).toContain(enMonitor.openState.unknown);
    await screenshot(page, 'monitor-runtime-en');
    expect(await sameDocument(page)).toBe(true);
  });

  it('follows a lock live for a user who reads runtime data only, without errors for the commands it does not receive', async () => {
    const lockOnly = { name: 'E2E 只读监控锁', code: 'E2E-MONR-0001' };
    const credential = await registerLocks('E2E-MONR', [lockOnly], {
      unit: 'E2E 荃湾站只读',
      type: 'E2E 只读门锁',
    });
    const name = 'e2e_monitor_reader';
    const password = await staffHolding(await adminApi(app.apiUrl), name, [Permission.MonitorRead]);
    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, name, password);
    await page.goto('/monitor/runtime');
    await page.getByTestId('monitorRuntime-page').waitFor();
    await expect.poll(() => liveState(page), { timeout: 20_000 }).toBe('live');
    const door = lockRow(page, lockOnly.name).getByTestId('monitorRuntime-door');
    await door.waitFor();

    // Device commands are published on the station's topics meanwhile; the broker keeps them from this user.
    const admin = await adminApi(app.apiUrl);
    await admin.call(api.deviceCommand.sendParam, {
      body: {
        kind: 'value',
        deviceId: credential.deviceId,
        name: 'volume',
        value: '2',
      },
    });
    const lock = await connectLock(credential);
    await report(lock, credential, 'e2e-monr-1', 'open');
    await expect.poll(() => stateOf(door), { timeout: 10_000 }).toBe('open');
    expect(await liveState(page)).toBe('live');
    expect(await page.locator('.ant-message-notice-error, .ant-notification-notice-error').count()).toBe(0);
  });
});
