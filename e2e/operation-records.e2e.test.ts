// Operation records and remote opening (spec §2 /task/operation-records, §3 Operation record): a staff member
// holding a fixed authorisation on a registered lock, whose simulated lock is running, opens it from the
// runtime monitor after confirming; in a second browser the records page shows the record arrive and move on
// to succeeded when the lock answers, without a reload. A staff member with no task or authorisation is
// refused, and reads why. Photographed empty, with rows (zh-CN and en), and the confirmation.
import { api, devTypeOpKey, Permission, ResultCode, translateResult } from '@uiot/contracts';
import { type Fleet, startFleet } from '@uiot/simulator';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import enTasks from '../apps/web/src/locales/en/tasks.json' with { type: 'json' };
import zhCommon from '../apps/web/src/locales/zh-CN/common.json' with { type: 'json' };
import zhTasks from '../apps/web/src/locales/zh-CN/tasks.json' with { type: 'json' };
import { type AdminApi, adminApi, staffHolding } from './support/admin-api.ts';
import { registeredLock } from './support/alarm-locks.ts';
import {
  animationsDone,
  screenshot,
  shown,
  signIn,
  switchLanguage,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const MQTT_PORT = await freePort();
/** A long Chinese name: the records' device cell must cut it, not break the layout. */
const LOCK = { name: 'E2E 荃湾站B出口通信机房智能门锁（东侧设备间第二道防护门）', code: 'E2E-OPR-0001' };
const OPENER = 'E2E 陈开锁';
const STRANGER = 'E2E 无授权人员';
const RECORDS = '/task/operation-records';

const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });
const fleets: Fleet[] = [];

afterAll(async () => {
  await Promise.all(fleets.map((fleet) => fleet.stop({ drainMs: 0 }).catch(() => undefined)));
});

/** The lock registered, and running as a simulated lock that obeys remote commands. */
async function runningLock(admin: AdminApi) {
  const lock = await registeredLock(admin, 'E2E-OPR', LOCK);
  const fleet = startFleet({
    devices: [{ stationId: lock.stationId, code: LOCK.code, secret: lock.secret, protocol: 'mqtt' }],
    mqttUrl: `mqtt://127.0.0.1:${MQTT_PORT}`,
    mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
    seed: 11,
  });
  fleets.push(fleet);
  await fleet.ready;
  return lock;
}

/** A staff member who may open remotely and read the records, with the operation grant of the lock's type. */
async function staffMember(admin: AdminApi, name: string, typeId: string) {
  const password = await staffHolding(admin, name, [
    Permission.MonitorRead,
    Permission.DeviceOpen,
    Permission.OperationRecordRead,
    Permission.OperationRecordExport,
    devTypeOpKey(typeId),
  ]);
  const staff = (await admin.call(api.staff.getAll)).find((member) => member.name === name);
  if (!staff) throw new Error(`${name} not found`);
  return { id: staff.id, password };
}

async function openRecords(page: Page) {
  await page.goto(RECORDS);
  await page.getByTestId('operationRecords-page').waitFor();
}

const resultOf = (page: Page, text: string) =>
  tableRow(page, 'operationRecords-table', text).getByTestId('operation-result').getAttribute('data-result');

describe('operation records', () => {
  it('records a remote opening live, and tells a staff member without authorisation why it is refused', async () => {
    const admin = await adminApi(app.apiUrl);
    const lock = await runningLock(admin);
    const opener = await staffMember(admin, OPENER, lock.typeId);
    const stranger = await staffMember(admin, STRANGER, lock.typeId);
    await admin.call(api.fixedAuthorization.save, {
      body: {
        objectType: 'staff',
        objectId: opener.id,
        forever: true,
        startTime: null,
        endTime: null,
        allDevice: false,
        deviceIds: [lock.deviceId],
      },
    });

    // The records page, empty, waits in its own browser.
    const watcher = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(watcher.page, OPENER, opener.password);
    await openRecords(watcher.page);
    await watcher.page.getByTestId('operationRecords-table').locator('.ant-empty').waitFor();
    await screenshot(watcher.page, 'operation-records-empty-zh-CN');

    // The opener opens the lock from the runtime monitor, after a question naming it.
    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, OPENER, opener.password);
    await page.goto('/monitor/runtime');
    const row = tableRow(page, 'monitorRuntime-table', LOCK.name);
    await row.getByTestId('monitorRuntime-row-remoteOpen').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await animationsDone(page);
    expect(await shown(confirm)).toContain(LOCK.name);
    await screenshot(page, 'operation-remote-open-confirm-zh-CN');
    await page.getByTestId('monitorRuntime-confirm-ok').click();
    await toast(page, zhCommon.outcome.sendCommand.success).waitFor();

    // The record arrives on the watcher's page, and the lock's answer makes it succeeded.
    await expect.poll(() => resultOf(watcher.page, OPENER), { timeout: 20_000 }).toBe('succeeded');
    const record = tableRow(watcher.page, 'operationRecords-table', OPENER);
    expect(await shown(record)).toContain(zhTasks.operation.method.remote);
    expect(await shown(record)).toContain(LOCK.code);

    // Someone with no task or authorisation is refused, and reads why (from the device's monitor details).
    const refused = translateResult(ResultCode.OpenNotAuthorized, 'zh-CN') as string;
    const other = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(other.page, STRANGER, stranger.password);
    await other.page.goto(`/monitor/runtime/detail?deviceId=${lock.deviceId}`);
    await other.page.getByTestId('monitorDetail-remoteOpen').click();
    await other.page.getByTestId('monitorDetail-confirm-ok').click();
    await toast(other.page, refused).waitFor();

    // The refusal is recorded with its reason; the watcher sees it too.
    const refusal = tableRow(watcher.page, 'operationRecords-table', STRANGER);
    await expect.poll(() => resultOf(watcher.page, STRANGER), { timeout: 20_000 }).toBe('refused');
    expect(await shown(refusal.getByTestId('operation-refusal'))).toBe(refused);
    await animationsDone(watcher.page);
    await screenshot(watcher.page, 'operation-records-zh-CN');

    // The device's own operation-record tab lists both.
    await other.page.getByTestId('monitorDetail-tab-operations').click();
    await expect
      .poll(() => other.page.getByTestId('monitorOperations-table').locator('tr.ant-table-row').count(), {
        timeout: 10_000,
      })
      .toBe(2);
    await screenshot(other.page, 'operation-records-monitor-tab-zh-CN');

    await switchLanguage(watcher.page, 'lang-switch', 'en');
    await expect.poll(() => shown(refusal)).toContain(translateResult(ResultCode.OpenNotAuthorized, 'en'));
    expect(await shown(tableRow(watcher.page, 'operationRecords-table', OPENER))).toContain(
      enTasks.operation.result.succeeded,
    );
    await screenshot(watcher.page, 'operation-records-en');
  });
});
