// Power and damage levels (spec §2 /sys/battery-power and /sys/damage, §3, §5): the administrator opens both
// pages empty, adds levels, is shown an overlapping range on its field, and sees a long Chinese description.
import { api, type Endpoint, validationMessages } from '@uiot/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import zhLevels from '../apps/web/src/locales/zh-CN/levels.json' with { type: 'json' };
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  apiResponse,
  chooseOption,
  fieldError,
  screenshot,
  signIn,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const LONG = '锁体被撬或外壳破损，须在当日派员到现场检查，确认损坏程度后更换锁具并记录于设备台账。'.repeat(3);

const { app, browser } = useConsoleSuite();

/** Submits a dialog and resolves with the call's answer: its success flag and field issues. */
async function submit(page: Page, dialog: string, endpoint: Endpoint) {
  const response = apiResponse(page, endpoint);
  await page.getByTestId(`${dialog}-submit`).click();
  return (await (await response).json()) as { success: boolean; data: unknown };
}

async function fillNumbers(page: Page, form: string, values: Record<string, number>): Promise<void> {
  for (const [field, value] of Object.entries(values)) {
    const input = page.getByTestId(`${form}-${field}`);
    await input.fill('');
    await input.fill(String(value));
  }
}

describe('power and damage levels', () => {
  it('adds power levels, shows an overlap on its field, and adds a damage level', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);

    await page.goto('/sys/battery-power');
    await page.getByTestId('powerLevels-page').waitFor();
    await page.locator('.ant-empty').first().waitFor();
    await screenshot(page, 'levels-power-empty-zh-CN');

    await page.getByTestId('powerLevels-create').click();
    await page.getByTestId('powerLevels-dialog').waitFor();
    await fillNumbers(page, 'powerLevel', { level: 1, startValue: 0, endValue: 20, availableDays: 7 });
    await chooseOption(page, 'powerLevel-state', zhLevels.power.state.lowPower);
    expect((await submit(page, 'powerLevels-dialog', api.powerLevel.save)).success).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    await tableRow(page, 'powerLevels-table', zhLevels.power.state.lowPower).waitFor();

    // A range that starts inside level 1's is refused on its start.
    await page.getByTestId('powerLevels-create').click();
    await page.getByTestId('powerLevels-dialog').waitFor();
    await fillNumbers(page, 'powerLevel', { level: 2, startValue: 10, endValue: 100, availableDays: 365 });
    expect((await submit(page, 'powerLevels-dialog', api.powerLevel.save)).success).toBe(false);
    const overlap = fieldError(page, 'powerLevel-startValue');
    await overlap.waitFor();
    expect(await overlap.textContent()).toBe(validationMessages['v.rangeOverlap']['zh-CN']);
    await screenshot(page, 'levels-power-overlap-zh-CN');

    await fillNumbers(page, 'powerLevel', { startValue: 20 });
    expect((await submit(page, 'powerLevels-dialog', api.powerLevel.save)).success).toBe(true);
    await tableRow(page, 'powerLevels-table', zhLevels.power.state.normal).waitFor();
    await screenshot(page, 'levels-power-list-zh-CN');

    await page.goto('/sys/damage');
    await page.getByTestId('damageLevels-page').waitFor();
    await page.locator('.ant-empty').first().waitFor();
    await screenshot(page, 'levels-damage-empty-zh-CN');
    await page.getByTestId('damageLevels-create').click();
    await page.getByTestId('damageLevels-dialog').waitFor();
    await fillNumbers(page, 'damageLevel', { level: 1, startValue: 0, endValue: 3 });
    await page.getByTestId('damageLevel-description').fill(LONG);
    expect((await submit(page, 'damageLevels-dialog', api.damageLevel.save)).success).toBe(true);
    await tableRow(page, 'damageLevels-table', LONG.slice(0, 10)).waitFor();
    await screenshot(page, 'levels-damage-list-zh-CN');
  });
});
