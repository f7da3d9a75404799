// Offline PINs (spec §2 /task/offline-pins and the monitor's dynamic-passwords tab, §3 PIN, §4, §5): a staff
// member who may generate PINs opens the page empty, generates a once-PIN on a registered lock for a
// maintainer an approved lock task allows, and reads its code once; the code is typed on the simulated lock
// (provisioned with the lock's PIN secret), which opens offline and reports the use: the PIN shows used and
// expired without a reload, and the opening is in the operation records and the lock's monitor tab. For a
// staff member no task allows, the dialog shows the decision's refusal. Photographed empty, the dialog, the
// code, the refusal and the list (zh-CN). A durable PIN generated while the lock sleeps has no code until the
// lock wakes; its generator then sees the code once from its row, and the lock opens with it.
import { api, devTypeOpKey, Permission, ResultCode, translateResult } from '@uiot/contracts';
import { type Fleet, startFleet } from '@uiot/simulator';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import zhPins from '../apps/web/src/locales/zh-CN/pins.json' with { type: 'json' };
import zhTasks from '../apps/web/src/locales/zh-CN/tasks.json' with { type: 'json' };
import { type AdminApi, adminApi, apiAs, staffHolding } from './support/admin-api.ts';
import { registeredLock } from './support/alarm-locks.ts';
import {
  animationsDone,
  chooseOption,
  clickAndAnswer,
  codeText,
  screenshot,
  shown,
  signIn,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const MQTT_PORT = await freePort();
/** A long Chinese name: the table and the dialogs must cut or wrap it, not break. */
const LOCK = { name: 'E2E 荃湾站隧道检修门智能门锁（北行线第三道防护门）', code: 'E2E-PIN-0001' };
const GENERATOR = 'E2E 王发码';
const MAINTAINER = 'E2E 陈维修';
const STRANGER = 'E2E 无任务人员';
const AUDITOR = 'E2E 审核员甲';
const TASK = 'E2E 荃湾站隧道夜间巡检';
const PINS = '/task/offline-pins';
const HOUR = 3_600_000;

const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });
const fleets: Fleet[] = [];

afterAll(async () => {
  await Promise.all(fleets.map((fleet) => fleet.stop({ drainMs: 0 }).catch(() => undefined)));
});

/** The registered lock running as a simulated lock provisioned with its PIN secret: it wakes and reports. */
async function wakeLock(lock: { stationId: string; secret: string; pinSecret: string }): Promise<Fleet> {
  const fleet = startFleet({
    devices: [
      {
        stationId: lock.stationId,
        code: LOCK.code,
        secret: lock.secret,
        pinSecret: lock.pinSecret,
        protocol: 'mqtt',
      },
    ],
    mqttUrl: `mqtt://127.0.0.1:${MQTT_PORT}`,
    mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
    seed: 17,
  });
  fleets.push(fleet);
  await fleet.ready;
  return fleet;
}

/** The lock registered, and running as a simulated lock provisioned with its PIN secret. */
async function runningLock(admin: AdminApi) {
  const lock = await registeredLock(admin, 'E2E-PIN', LOCK);
  expect(lock.pinSecret).toMatch(/^[0-9a-f]{40}$/);
  return { lock, fleet: await wakeLock(lock) };
}

async function staffId(admin: AdminApi, name: string): Promise<string> {
  const staff = (await admin.call(api.staff.getAll)).find((member) => member.name === name);
  if (!staff) throw new Error(`${name} not found`);
  return staff.id;
}

/**
 * A lock task for the maintainer on the lock, from an hour ago for five hours, handed in by the administrator
 * and passed by its auditor: it covers the whole window of a once-PIN starting now.
 */
async function approvedTask(admin: AdminApi, maintainerId: string, deviceId: string) {
  const auditorPassword = await staffHolding(admin, AUDITOR, [
    Permission.LockTaskRead,
    Permission.LockTaskAudit,
  ]);
  const now = Date.now();
  const { id } = await admin.call(api.lockTask.save, {
    body: {
      name: TASK,
      startTime: new Date(now - HOUR).toISOString(),
      endTime: new Date(now + 5 * HOUR).toISOString(),
      operatorIds: [maintainerId],
      operateDeptId: null,
      auditDeptId: null,
      auditorId: await staffId(admin, AUDITOR),
      allDevice: false,
      items: [{ deviceId, keyId: null }],
    },
  });
  await admin.call(api.lockTask.submit, { query: { id } });
  const auditor = await apiAs(app.apiUrl, AUDITOR, auditorPassword);
  await auditor.call(api.lockTask.pass, { query: { id } });
}

/** Opens the generate dialog and fills it in for `user`: a once-PIN from now, the default. */
async function fillGenerate(page: Page, user: string, reason: string) {
  await page.getByTestId('offlinePins-toolbar-generate').click();
  await page.getByTestId('pinGenerate').waitFor();
  await chooseOption(page, 'pin-deviceId', LOCK.name);
  await chooseOption(page, 'pin-userId', user);
  await page.getByTestId('pin-reason').fill(reason);
  await animationsDone(page);
}

const pinRowOf = (page: Page, user: string) => tableRow(page, 'offlinePins-table', user);

describe('offline PINs', () => {
  it('issues a once-PIN the lock accepts offline, shows its use, and tells why a PIN is refused', async () => {
    const admin = await adminApi(app.apiUrl);
    const { lock, fleet } = await runningLock(admin);
    // The lock's type grant is what the decision asks of whoever opens (devTypeOp); the task does the rest.
    await staffHolding(admin, MAINTAINER, [devTypeOpKey(lock.typeId)]);
    await staffHolding(admin, STRANGER, [devTypeOpKey(lock.typeId)]);
    await approvedTask(admin, await staffId(admin, MAINTAINER), lock.deviceId);
    // The generator's own keys, and those of the choosers the dialog uses (the ledger's devices and the
    // staff list, which the contracts open to device readers and key readers).
    const password = await staffHolding(admin, GENERATOR, [
      Permission.PinRead,
      Permission.PinGenerate,
      Permission.PinRevoke,
      Permission.DeviceRead,
      Permission.KeyRead,
      Permission.OperationRecordRead,
      Permission.MonitorRead,
    ]);

    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, GENERATOR, password);
    await page.goto(PINS);
    await page.getByTestId('offlinePins-page').waitFor();
    await page.getByTestId('offlinePins-table').locator('.ant-empty').waitFor();
    await screenshot(page, 'offline-pins-empty-zh-CN');

    // A once-PIN for the maintainer: the dialog says what a once-PIN is and fills the end in.
    await fillGenerate(page, MAINTAINER, '隧道检修门例行巡检');
    const dialog = page.getByTestId('pinGenerate');
    expect(await shown(dialog)).toContain(zhPins.type.once);
    expect(await page.getByTestId('pin-endTime').inputValue()).not.toBe('');
    await screenshot(page, 'offline-pins-generate-dialog-zh-CN');
    expect(
      (await clickAndAnswer(page, page.getByTestId('pinGenerate-submit'), api.pin.generate)).success,
    ).toBe(true);

    // The code, once: large, with its copy button and the warning.
    const issued = page.getByTestId('pinCode');
    await issued.waitFor();
    const code = await codeText(page.getByTestId('pinCode-password'));
    expect(code).toMatch(/^\d{9}$/);
    expect(await shown(issued)).toContain(MAINTAINER);
    await page.getByTestId('pinCode-copy').waitFor();
    await screenshot(page, 'offline-pins-code-zh-CN');
    await page.getByTestId('pinCode-close').click();
    await issued.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(code);

    // Listed masked, enabled, under the task, unused.
    const row = pinRowOf(page, MAINTAINER);
    await row.waitFor();
    expect(await shown(row)).toContain(TASK);
    expect(await shown(row)).not.toContain(code);
    expect(await row.getByTestId('pin-useState').getAttribute('data-state')).toBe('enabled');

    // Typed on the lock's keypad: the lock opens without asking anyone, and reports the use.
    expect(fleet.enterPin(LOCK.code, code)).toMatchObject({ outcome: 'opened' });
    // The use shows without a reload: counted, timed, and the once-PIN expired.
    await expect
      .poll(() => row.getByTestId('pin-useState').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('expire');
    expect(await shown(row)).toContain(zhPins.useState.expire);
    expect(await shown(row.getByTestId('pin-useCount'))).toBe('1');
    // Typed again, it is refused: used.
    expect(fleet.enterPin(LOCK.code, code)).toMatchObject({ outcome: 'refused', reason: 'used' });

    // Someone no task or authorisation allows: the dialog says why, in the console's language.
    await fillGenerate(page, STRANGER, '临时检修');
    expect((await clickAndAnswer(page, page.getByTestId('pinGenerate-submit'), api.pin.generate)).code).toBe(
      ResultCode.OpenNotAuthorized,
    );
    const refusal = page.getByTestId('pinGenerate-refusal');
    await refusal.waitFor();
    const reason = translateResult(ResultCode.OpenNotAuthorized, 'zh-CN') as string;
    expect(await shown(refusal)).toContain(reason);
    await toast(page, zh.common.outcome.generate.failure.replace('{{error}}', '')).first().waitFor();
    await screenshot(page, 'offline-pins-refused-zh-CN');
    await page.getByTestId('pinGenerate-cancel').click();
    await page.getByTestId('pinGenerate-discard').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await pinRowOf(page, STRANGER).count()).toBe(0);

    // After a reload the list still says the PIN was used, once.
    await page.reload();
    await row.waitFor();
    expect(await row.getByTestId('pin-useState').getAttribute('data-state')).toBe('expire');
    expect(await shown(row.getByTestId('pin-useCount'))).toBe('1');
    await screenshot(page, 'offline-pins-zh-CN');

    // The opening is an operation record: by PIN, under the maintainer and the task.
    await page.goto('/task/operation-records');
    const record = tableRow(page, 'operationRecords-table', MAINTAINER);
    await record.waitFor();
    expect(await shown(record)).toContain(zhTasks.operation.method.pin);
    expect(await shown(record)).toContain(TASK);

    // The lock's monitor details list its PINs in their own tab.
    await page.goto(`/monitor/runtime/detail?deviceId=${lock.deviceId}`);
    await page.getByTestId('monitorDetail-tab-pins').click();
    const tabRow = tableRow(page, 'monitorPins-table', MAINTAINER);
    await tabRow.waitFor();
    expect(await tabRow.getByTestId('pin-useState').getAttribute('data-state')).toBe('expire');
    await screenshot(page, 'offline-pins-monitor-tab-zh-CN');

    // A durable PIN while the lock sleeps: no code yet, the dialog says when it comes and where.
    await fleet.stop({ drainMs: 0 });
    await page.goto(PINS);
    await pinRowOf(page, MAINTAINER).first().waitFor();
    await fillGenerate(page, MAINTAINER, '泵房长期检修');
    await page.locator('label', { has: page.getByTestId('pin-type-durable') }).click();
    expect(
      (await clickAndAnswer(page, page.getByTestId('pinGenerate-submit'), api.pin.generate)).success,
    ).toBe(true);
    const awaiting = page.getByTestId('pinCode');
    await awaiting.waitFor();
    expect(await page.getByTestId('pinCode-password').count()).toBe(0);
    expect(await shown(page.getByTestId('pinCode-note'))).toContain(zhPins.action.showCode);
    await screenshot(page, 'offline-pins-durable-awaiting-zh-CN');
    await page.getByTestId('pinCode-close').click();
    await awaiting.waitFor({ state: 'detached' });

    // The lock wakes: the server draws the code and stores it on the lock; its generator may see it, once.
    const awake = await wakeLock(lock);
    const durable = tableRow(page, 'offlinePins-table', zhPins.type.durable);
    const showCode = durable.getByTestId('offlinePins-row-showCode');
    await expect
      .poll(
        async () => {
          await page.reload();
          await durable.waitFor();
          return showCode.count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await shown(durable.getByTestId('pin-useState'))).toBe(zhPins.useState.enabled);
    await clickAndAnswer(page, showCode, api.pin.showCode);
    const stored = page.getByTestId('pinCode');
    await stored.waitFor();
    const durableCode = await codeText(page.getByTestId('pinCode-password'));
    expect(durableCode).toMatch(/^[1-9]\d{8}$/);
    await screenshot(page, 'offline-pins-durable-code-zh-CN');
    await page.getByTestId('pinCode-close').click();
    await stored.waitFor({ state: 'detached' });
    expect(await showCode.count()).toBe(0);
    // The lock holds it: it opens with it, any number of times in its window.
    expect(awake.enterPin(LOCK.code, durableCode)).toMatchObject({ outcome: 'opened' });
    expect(awake.enterPin(LOCK.code, durableCode)).toMatchObject({ outcome: 'opened' });
    await expect.poll(() => shown(durable.getByTestId('pin-useCount')), { timeout: 20_000 }).toBe('2');
  });
});
