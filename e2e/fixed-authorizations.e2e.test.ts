// Fixed authorisations (spec §2 /task/fixed-authorize, §3, §5): the administrator opens the page empty, is told
// what a form without devices lacks, gives two locks to a staff member forever, sees a department's upcoming
// authorisation beside it, narrows the first to one lock, and withdraws it.
import { api, validationMessages } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import zhTasks from '../apps/web/src/locales/zh-CN/tasks.json' with { type: 'json' };
import { adminApi, ledgerDevices } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  clickAndAnswer,
  clickSettled,
  fieldError,
  openDropdown,
  screenshot,
  signIn,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const labels = zhTasks.fixedAuthorization;
const WORKER = 'E2E 陈大文';
const DEPARTMENT = 'E2E 信号维修部（荃湾线及港岛线夜间检修组）';
const LOCKS = ['E2E 一号闸门锁', 'E2E 二号闸门锁'];
const DAY = 24 * 3_600_000;

const { app, browser } = useConsoleSuite();

describe('fixed authorisations', () => {
  it('gives locks to a staff member forever, lists a department’s upcoming one, narrows and withdraws', async () => {
    const admin = await adminApi(app.apiUrl);
    await ledgerDevices(
      admin,
      'E2EFA',
      LOCKS.map((name, i) => ({ name, code: `FA-${i + 1}` })),
    );
    await admin.call(api.staff.saveStaffEx, {
      body: { name: WORKER, staffType: 0, password: 'Worker-Init-2026' },
    });

    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/task/fixed-authorize');
    await page.getByTestId('fixedAuthorizations-page').waitFor();
    await page.locator('.ant-empty').first().waitFor();
    await screenshot(page, 'fixed-authorizations-empty-zh-CN');

    // A staff member, forever, and no device: the devices are asked for.
    await page.getByTestId('fixedAuthorizations-create').click();
    await page.getByTestId('fixedAuthorizations-dialog').waitFor();
    await chooseOption(page, 'fixedAuthorization-objectId', WORKER);
    await page.getByTestId('fixedAuthorization-forever').click();
    await page.getByTestId('fixedAuthorizations-dialog-submit').click();
    const missing = fieldError(page, 'fixedAuthorization-deviceIds');
    await missing.waitFor();
    expect(await missing.textContent()).toBe(validationMessages['v.authorizationDevices']['zh-CN']);
    await screenshot(page, 'fixed-authorizations-no-devices-zh-CN');

    // One opening of the chooser takes both: it stays open while several are picked.
    await page.getByTestId('fixedAuthorization-deviceIds').click();
    for (const lock of LOCKS) {
      await clickSettled(page, openDropdown(page).locator(`[title="${lock}"]`));
    }
    await page.keyboard.press('Escape');
    expect(
      (
        await clickAndAnswer(
          page,
          page.getByTestId('fixedAuthorizations-dialog-submit'),
          api.fixedAuthorization.save,
        )
      ).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    const row = tableRow(page, 'fixedAuthorizations-table', WORKER);
    await row.waitFor();
    expect(await row.textContent()).toContain(labels.forever);
    expect(await row.textContent()).toContain(labels.state.active);

    // A department's authorisation that starts tomorrow, made elsewhere, is listed as not started.
    const department = await admin.call(api.department.save, {
      body: { name: DEPARTMENT, deptType: 'Electric' },
    });
    const start = Date.now() + DAY;
    await admin.call(api.fixedAuthorization.save, {
      body: {
        objectType: 'department',
        objectId: department.id,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 7 * DAY).toISOString(),
        allDevice: true,
      },
    });
    await page.reload();
    const upcoming = tableRow(page, 'fixedAuthorizations-table', DEPARTMENT);
    await upcoming.waitFor();
    expect(await upcoming.textContent()).toContain(labels.state.upcoming);
    expect(await upcoming.textContent()).toContain(labels.allDevices);
    await screenshot(page, 'fixed-authorizations-list-zh-CN');

    // Narrowed to the first lock.
    await row.getByTestId('fixedAuthorizations-row-edit').click();
    await page.getByTestId('fixedAuthorizations-dialog').waitFor();
    await page
      .getByTestId('fixedAuthorization-deviceIds')
      .locator('.ant-select-selection-item', { hasText: LOCKS[1]! })
      .locator('.ant-select-selection-item-remove')
      .click();
    expect(
      (
        await clickAndAnswer(
          page,
          page.getByTestId('fixedAuthorizations-dialog-submit'),
          api.fixedAuthorization.update,
        )
      ).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.update.success).waitFor();
    await expect
      .poll(async () => row.getByTestId('fixedAuthorizations-devices').textContent())
      .toBe(LOCKS[0]);

    // Withdrawn.
    await row.getByTestId('fixedAuthorizations-row-delete').click();
    expect(
      (
        await clickAndAnswer(
          page,
          page.getByTestId('fixedAuthorizations-confirm-ok'),
          api.fixedAuthorization.del,
        )
      ).success,
    ).toBe(true);
    await row.waitFor({ state: 'detached' });
  });
});
