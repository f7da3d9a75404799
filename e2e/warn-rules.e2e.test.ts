// Alarm rules (spec §2 /sys/warn-rule, §3 Warn rule, Rule item): the administrator writes a Delay rule
// with two conditions on a device type's catalogue and a role to notify, finds it in the table, changes its
// severity and deletes it; the page and its dialog are photographed in Chinese and English.
import { api } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import enAlarms from '../apps/web/src/locales/en/alarms.json' with { type: 'json' };
import enMonitor from '../apps/web/src/locales/en/monitor.json' with { type: 'json' };
import zhAlarms from '../apps/web/src/locales/zh-CN/alarms.json' with { type: 'json' };
import zhMonitor from '../apps/web/src/locales/zh-CN/monitor.json' with { type: 'json' };
import { adminApi } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  clickAndAnswer,
  screenshot,
  shown,
  signIn,
  switchLanguage,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const TYPE = 'E2E 机房门锁';
const ROLE = 'E2E 值班站务';
// Long enough to show how the table and the dialog hold a long name.
const RULE = 'E2E 荃湾站 A 出口机房门长时间未关闭且电量低于二成（夜间延时告警）';

const { app, browser } = useConsoleSuite();

describe('alarm rules', () => {
  it('creates a Delay rule with two conditions and a recipient, edits it and deletes it', async () => {
    const admin = await adminApi(app.apiUrl);
    await admin.call(api.deviceType.save, {
      body: {
        name: TYPE,
        code: 'E2E-WR',
        category: 'IoT',
        reportInterval: 3600,
        heartbeatInterval: 300,
        sortIndex: 0,
      },
    });
    await admin.call(api.role.save, { body: { name: ROLE } });

    const { page } = await browser.open(app.url);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/sys/warn-rule');
    await page.getByTestId('warnRules-page').waitFor();
    await screenshot(page, 'warn-rules-empty-zh-CN');

    // The rule: battery under 20 % and the door open, for 5 minutes.
    await page.getByTestId('warnRules-create').click();
    const dialog = page.getByTestId('warnRules-dialog');
    await dialog.waitFor();
    await chooseOption(page, 'warnRule-deviceTypeId', TYPE);
    await page.getByTestId('warnRule-name').fill(RULE);
    await page
      .getByTestId('warnRule-formatMsg')
      .fill('{station} {device}：门未关，电量 {prop:battery}%（{time}）');
    await chooseOption(page, 'warnRule-ruleType', zhAlarms.ruleType.Delay);
    await page.getByTestId('warnRule-delayInterval').fill('300');
    const master = zhAlarms.origin.Master;
    await chooseOption(page, 'warnRule-items-0-property', `${zhMonitor.runtime.column.battery} (${master})`);
    await chooseOption(page, 'warnRule-items-0-condition', zhAlarms.condition.Lt);
    await page.getByTestId('warnRule-items-0-propVal').fill('20');
    await page.getByTestId('warnRule-items-add').click();
    await chooseOption(
      page,
      'warnRule-items-1-property',
      `${zhMonitor.runtime.column.doorState} (${master})`,
    );
    await chooseOption(page, 'warnRule-items-1-propVal', zhMonitor.openState.open);
    await page.getByTestId('warnRule-resend').click();
    await page.getByTestId('warnRule-resendInterval').fill('600');
    await page.getByTestId('warnRule-emailNotice').click();
    // No SMTP server here: the editor says no e-mail will be sent.
    expect(await shown(page.getByTestId('warnRule-emailNotice-unconfigured'))).toBe(
      zhAlarms.warnRule.channelNotConfigured.email,
    );
    await chooseOption(page, 'warnRule-recipients-role', ROLE);
    await page.keyboard.press('Escape');
    await screenshot(page, 'warn-rule-dialog-bottom-zh-CN');
    await page.locator('.ant-modal-wrap').evaluate((wrap) => wrap.scrollTo(0, 0));
    await screenshot(page, 'warn-rule-dialog-zh-CN');
    expect(
      (await clickAndAnswer(page, page.getByTestId('warnRules-dialog-submit'), api.warnRule.save)).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    const row = tableRow(page, 'warnRules-table', RULE);
    await row.waitFor();
    const text = await shown(row);
    expect(text).toContain(TYPE);
    expect(text).toContain(zhAlarms.severity.major);
    await screenshot(page, 'warn-rules-zh-CN');

    // Stored as written: two items, the role, the delay.
    const stored = (await admin.call(api.warnRule.queryPage, { query: { name: 'E2E' } as never })).rows[0];
    expect(stored).toMatchObject({
      ruleType: 'Delay',
      delayInterval: 300,
      resend: true,
      resendInterval: 600,
      emailNotice: true,
      items: [
        { propCode: 'battery', propOrigin: 'Master', conditionType: 'Lt', propVal: '20', valType: 'number' },
        {
          propCode: 'doorState',
          propOrigin: 'Master',
          conditionType: 'Eq',
          propVal: 'open',
          valType: 'string',
        },
      ],
      recipients: [{ kind: 'role', name: ROLE }],
    });

    // Edited: critical.
    await row.getByTestId('warnRules-row-edit').click();
    await dialog.waitFor();
    await expect
      .poll(() => shown(page.getByTestId('warnRule-items-1-propVal')))
      .toContain(zhMonitor.openState.open);
    await chooseOption(page, 'warnRule-severity', zhAlarms.severity.critical);
    expect(
      (await clickAndAnswer(page, page.getByTestId('warnRules-dialog-submit'), api.warnRule.update)).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.update.success).waitFor();
    await expect.poll(() => shown(row)).toContain(zhAlarms.severity.critical);

    // In English.
    await switchLanguage(page, 'lang-switch', 'en');
    await page.getByTestId('warnRules-table').getByText(enAlarms.severity.critical).waitFor();
    await screenshot(page, 'warn-rules-en');
    await row.getByTestId('warnRules-row-edit').click();
    await dialog.waitFor();
    await expect
      .poll(() => shown(page.getByTestId('warnRule-items-1-propVal')))
      .toContain(enMonitor.openState.open);
    await screenshot(page, 'warn-rule-dialog-en');
    await page.getByTestId('warnRules-dialog-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    await switchLanguage(page, 'lang-switch', 'zh-CN');

    // The type's property catalogue: the protocol's known fields, then those operators add.
    await page.getByTestId('warnRules-toolbar-properties').click();
    await page.getByTestId('deviceProperties').waitFor();
    await chooseOption(page, 'deviceProperties-deviceTypeId', TYPE);
    await tableRow(page, 'deviceProperties-table', zhMonitor.runtime.column.doorState).waitFor();
    await page.getByTestId('deviceProperties-create').click();
    await page.getByTestId('deviceProperty-name').fill('水浸');
    await page.getByTestId('deviceProperty-code').fill('water');
    await chooseOption(page, 'deviceProperty-valueType', zhAlarms.valueType.boolean);
    expect(
      (
        await clickAndAnswer(
          page,
          page.getByTestId('deviceProperties-dialog-submit'),
          api.deviceProperty.save,
        )
      ).success,
    ).toBe(true);
    await tableRow(page, 'deviceProperties-table', '水浸').waitFor();
    await screenshot(page, 'warn-rule-properties-zh-CN');
    await page.keyboard.press('Escape');
    await page.getByTestId('deviceProperties').waitFor({ state: 'hidden' });

    // Deleted.
    await row.getByTestId('warnRules-row-delete').click();
    expect(
      (await clickAndAnswer(page, page.getByTestId('warnRules-confirm-ok'), api.warnRule.del)).success,
    ).toBe(true);
    await row.waitFor({ state: 'detached' });
  });
});
