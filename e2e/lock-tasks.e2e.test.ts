// Lock tasks (spec §2 /task/lock-task, §4 task and audit states, §5): the administrator writes a task for
// themselves and an operator on a registered lock (running as a simulated lock) and hands it in; the auditor,
// signed in in a second browser, passes it; the administrator sees it executing, with who audited it, in its
// details, and opens the lock remotely from there under the task: the auditor's records page shows the
// operation record arrive and succeed without a reload.
import { api, CONSOLE_UTC_OFFSET_MS, ResultCode } from '@uiot/contracts';
import { type Fleet, startFleet } from '@uiot/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import zhHome from '../apps/web/src/locales/zh-CN/home.json' with { type: 'json' };
import zhTasks from '../apps/web/src/locales/zh-CN/tasks.json' with { type: 'json' };
import { adminApi, staffHolding } from './support/admin-api.ts';
import { registeredLock } from './support/alarm-locks.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  clickAndAnswer,
  clickSettled,
  openDropdown,
  screenshot,
  signIn,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const labels = zhTasks.lockTask;
const TASK = 'E2E 更换荃湾站三号闸门信号电缆';
const LOCK = 'E2E 三号闸门锁';
const OPERATOR = 'E2E 李作业';
const AUDITOR = 'E2E 审核员';

const MQTT_PORT = await freePort();
const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });
const fleets: Fleet[] = [];

afterAll(async () => {
  await Promise.all(fleets.map((fleet) => fleet.stop({ drainMs: 0 }).catch(() => undefined)));
});

/** A date-time as the console's pickers write it: the station's wall clock (UTC+8), whatever the zone. */
function pickerText(ms: number): string {
  return `${new Date(ms + CONSOLE_UTC_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ')}:00`;
}

describe('lock tasks', () => {
  it('is written and handed in by its creator, passed by the auditor in another session, and executes', async () => {
    const admin = await adminApi(app.apiUrl);
    const registered = await registeredLock(admin, 'E2ELT', { name: LOCK, code: 'LT-3' });
    const fleet = startFleet({
      devices: [
        { stationId: registered.stationId, code: 'LT-3', secret: registered.secret, protocol: 'mqtt' },
      ],
      mqttUrl: `mqtt://127.0.0.1:${MQTT_PORT}`,
      mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
      seed: 3,
    });
    fleets.push(fleet);
    await fleet.ready;
    await staffHolding(admin, OPERATOR, []);
    const auditorPassword = await staffHolding(admin, AUDITOR, [
      'lockTask.read',
      'lockTask.audit',
      'operationRecord.read',
    ]);

    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/task/lock-task');
    await page.getByTestId('lockTasks-page').waitFor();
    await page.locator('.ant-empty').first().waitFor();
    await screenshot(page, 'lock-tasks-empty-zh-CN');

    await page.getByTestId('lockTasks-create').click();
    await page.getByTestId('lockTasks-dialog').waitFor();
    await page.getByTestId('lockTask-name').fill(TASK);
    for (const [field, at] of [
      ['startTime', Date.now() - 3_600_000],
      ['endTime', Date.now() + 4 * 3_600_000],
    ] as const) {
      const input = page.getByTestId(`lockTask-${field}`);
      await input.click();
      await input.fill(pickerText(at));
      await input.press('Enter');
    }
    for (const operator of [OPERATOR, 'admin']) {
      await chooseOption(page, 'lockTask-operatorIds', operator);
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('lockTask-items').click();
    await clickSettled(page, openDropdown(page).locator(`[title="${LOCK}"]`));
    await page.keyboard.press('Escape');
    // Each device chosen gets its key chooser (none chosen: any key the operator holds).
    await page.getByTestId('lockTask-itemKeys').getByText(LOCK).waitFor();
    await screenshot(page, 'lock-tasks-dialog-zh-CN');
    expect(
      (await clickAndAnswer(page, page.getByTestId('lockTasks-dialog-submit'), api.lockTask.save)).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    const row = tableRow(page, 'lockTasks-table', TASK);
    await row.getByTestId('lockTasks-state-New').waitFor();

    await row.getByTestId('lockTasks-row-submit').click();
    expect(
      (await clickAndAnswer(page, page.getByTestId('lockTasks-confirm-ok'), api.lockTask.submit)).success,
    ).toBe(true);
    await row.getByTestId('lockTasks-state-Audit').waitFor();
    // The creator cannot audit their own task: no pass button for them.
    expect(await row.getByTestId('lockTasks-row-pass').count()).toBe(0);

    const auditor = await browser.open(app.url);
    await signIn(auditor.page, AUDITOR, auditorPassword);
    await auditor.page.goto('/task/lock-task');
    const waiting = tableRow(auditor.page, 'lockTasks-table', TASK);
    await waiting.getByTestId('lockTasks-state-Audit').waitFor();
    await screenshot(auditor.page, 'lock-tasks-to-audit-zh-CN');
    await waiting.getByTestId('lockTasks-row-pass').click();
    expect(
      (
        await clickAndAnswer(
          auditor.page,
          auditor.page.getByTestId('lockTasks-confirm-ok'),
          api.lockTask.pass,
        )
      ).success,
    ).toBe(true);
    await waiting.getByTestId('lockTasks-state-Execute').waitFor();

    await page.reload();
    await row.getByTestId('lockTasks-state-Execute').waitFor();
    await row.getByTestId('lockTasks-row-detail').click();
    const detail = page.getByTestId('lockTasks-detail');
    await detail.waitFor();
    await expect.poll(() => detail.textContent()).toContain(AUDITOR);
    expect(await detail.textContent()).toContain(labels.authFlag.Pass);
    expect(await page.getByTestId('lockTasks-detail-items').textContent()).toContain(LOCK);
    await screenshot(page, 'lock-tasks-detail-zh-CN');

    // The administrator, an operator of the task, opens the lock from its details; the auditor's records page
    // shows the operation record under the task, succeeded once the simulated lock obeyed.
    await auditor.page.goto('/task/operation-records');
    await auditor.page.getByTestId('operationRecords-page').waitFor();
    await page.getByTestId('lockTasks-detail-remoteOpen').click();
    expect(
      (
        await clickAndAnswer(
          page,
          page.getByTestId('lockTasks-detail-confirm-ok'),
          api.operationRecord.remoteOpen,
        )
      ).code,
    ).toBe(ResultCode.Ok);
    const record = tableRow(auditor.page, 'operationRecords-table', TASK);
    await expect
      .poll(() => record.getByTestId('operation-result').getAttribute('data-result'), { timeout: 20_000 })
      .toBe('succeeded');
    await screenshot(auditor.page, 'lock-tasks-operation-record-zh-CN');

    // Home lists it among today's tasks, and among the tasks the auditor audited.
    await page.goto('/home');
    await page.getByTestId('home-today-tasks').getByText(TASK).waitFor();
    await screenshot(page, 'home-tasks-zh-CN');
    await auditor.page.goto('/home');
    const mine = auditor.page.getByTestId('home-my-tasks');
    await mine.getByText(zhHome.tasks.scope.audited).click();
    await auditor.page.getByTestId('home-my-tasks-audited').getByText(TASK).waitFor();
    await screenshot(auditor.page, 'home-my-tasks-audited-zh-CN');
  });
});
