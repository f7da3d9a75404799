import { api } from '@uiot/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi, ledgerDevices } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import { apiResponse, openAvatarMenu, screenshot, signIn, tableRow, useConsoleSuite } from './support/ui.ts';

const REGISTERED = { name: 'E2E 开关测试已注册门锁', code: 'E2E-FLAG-0001' };
const SPARE = { name: 'E2E 开关测试备用门锁', code: 'E2E-FLAG-0002' };

const { app, browser } = useConsoleSuite();

/** Sets a feature flag on the parameters page, as the administrator does: search, edit, switch, save. */
async function setFlag(page: Page, name: string, on: boolean): Promise<void> {
  await page.goto('/sys/params');
  await page.getByTestId('params-page').waitFor();
  await page.getByTestId('params-search-name').fill(name);
  await page.getByTestId('params-search-submit').click();
  const row = tableRow(page, 'params-table', name);
  await expect.poll(() => page.getByTestId('params-table').locator('tr.ant-table-row').count()).toBe(1);
  await row.getByTestId('params-row-edit').click();
  const toggle = page.getByTestId('param-val');
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click();
  const saved = apiResponse(page, api.params.update);
  await page.getByTestId('params-dialog-submit').click();
  expect(((await (await saved).json()) as { success: boolean }).success).toBe(true);
  await row.filter({ hasText: String(on) }).waitFor();
}

/** Signs out and in again: the console reads the feature flags at sign-in. */
async function signInAgain(page: Page): Promise<void> {
  const menu = await openAvatarMenu(page);
  await menu.getByTestId('avatar-menu-sign-out').click();
  await page.waitForURL('**/login**');
  await signIn(page, 'admin', ADMIN_PASSWORD);
}

const sidebarItem = (page: Page, name: string) =>
  page.getByTestId('sidebar-menu').getByTestId(`sidebar-item-${name}`);

/** Opens a page by its path; answers whether the console has that page (rather than the 404 page). */
async function opens(page: Page, path: string, pageTestId: string): Promise<boolean> {
  await page.goto(path);
  await page.locator(`[data-testid="${pageTestId}"], [data-testid="page-404"]`).first().waitFor();
  return (await page.getByTestId(pageTestId).count()) > 0;
}

describe('feature flags', () => {
  it('takes away the menus, tabs, fields and buttons of ShowCmd and SupportIoT as they are switched off', async () => {
    const admin = await adminApi(app.apiUrl);
    const [registered] = await ledgerDevices(admin, 'E2E-FLAG', [REGISTERED, SPARE]);
    await admin.call(api.device.regist, { query: { id: registered! } });

    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);

    // Everything on (the defaults): the IoT menus, the command records, the send-down tab, the IoT fields.
    await sidebarItem(page, 'Monitor').waitFor();
    expect(await sidebarItem(page, 'DataStatistics').count()).toBe(1);
    expect(await opens(page, '/data-statistics/device-command', 'deviceCommand-page')).toBe(true);
    expect(await sidebarItem(page, 'DeviceCommand').count()).toBe(1);
    await page.goto(`/monitor/runtime/detail?deviceId=${registered}`);
    await page.getByTestId('monitorDetail-page').waitFor();
    await page.getByTestId('monitorDetail-tab-params').waitFor();
    await page.goto('/device/device');
    await tableRow(page, 'ledger-table', SPARE.name).getByTestId('ledger-row-register').waitFor();
    expect(await page.getByTestId('ledger-search-iotType').count()).toBe(1);

    // ShowCmd off: the remote control records and the send-down go; the monitor and telemetry stay.
    await setFlag(page, 'ShowCmd', false);
    await signInAgain(page);
    expect(await opens(page, '/data-statistics/iot-message', 'iotMessage-page')).toBe(true);
    expect(await sidebarItem(page, 'IotMessage').count()).toBe(1);
    expect(await sidebarItem(page, 'DeviceCommand').count()).toBe(0);
    expect(await opens(page, '/data-statistics/device-command', 'deviceCommand-page')).toBe(false);
    await page.goto(`/monitor/runtime/detail?deviceId=${registered}`);
    await page.getByTestId('monitorDetail-tab-collection').waitFor();
    expect(await page.getByTestId('monitorDetail-tab-params').count()).toBe(0);
    await screenshot(page, 'feature-flags-show-cmd-off-zh-CN');

    // SupportIoT off: the monitor and the IoT statistics go (the operation records stay: keys open locks
    // without IoT), and the ledger's IoT search, fields and registration of IoT locks.
    await setFlag(page, 'SupportIoT', false);
    await signInAgain(page);
    await sidebarItem(page, 'Device').waitFor();
    expect(await sidebarItem(page, 'Monitor').count()).toBe(0);
    for (const entry of ['IotMessage', 'DeviceCommand', 'WarningMessage']) {
      expect(await sidebarItem(page, entry).count()).toBe(0);
    }
    expect(await opens(page, '/data-statistics/operation-record', 'operationRecords-page')).toBe(true);
    expect(await opens(page, '/monitor/runtime', 'monitorRuntime-page')).toBe(false);
    expect(await opens(page, '/data-statistics/iot-message', 'iotMessage-page')).toBe(false);

    expect(await opens(page, '/device/device', 'ledger-page')).toBe(true);
    const spare = tableRow(page, 'ledger-table', SPARE.name);
    await spare.waitFor();
    expect(await spare.getByTestId('ledger-row-register').count()).toBe(0);
    expect(await page.getByTestId('ledger-search-iotType').count()).toBe(0);
    await spare.getByTestId('ledger-row-edit').click();
    await page.getByTestId('device-name').waitFor();
    expect(await page.getByTestId('device-imei').count()).toBe(0);
    expect(await page.getByTestId('device-devEUI').count()).toBe(0);
    await screenshot(page, 'feature-flags-support-iot-off-zh-CN');
  });
});
