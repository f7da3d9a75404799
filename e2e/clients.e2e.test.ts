// Clients (spec §2 /sys/client, §3 Client): phones and a PC register through the public API; the
// administrator finds them waiting for review, is told a rejection needs a description, rejects one with
// it, passes another after comparing its code, and the clients learn where they stand.
import { api, type ClientRegistration, validationMessages } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import enClients from '../apps/web/src/locales/en/clients.json' with { type: 'json' };
import zhClients from '../apps/web/src/locales/zh-CN/clients.json' with { type: 'json' };
import { adminApi } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  clickAndAnswer,
  fieldError,
  screenshot,
  signIn,
  switchLanguage,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];

const CLIENTS: ClientRegistration[] = [
  {
    clientId: 'android-e2e-0001',
    clientType: 'ANDROID',
    name: 'E2E 荃湾线信号维修组夜班平板电脑（金钟站设备房）',
    telNo: '+852 9123 4567',
    registCode: '482913',
  },
  { clientId: 'ios-e2e-0002', clientType: 'IOS', name: 'E2E 来历不明的手机', registCode: '118204' },
  { clientId: 'pc-e2e-0003', clientType: 'PC', name: 'E2E Depot PC', registCode: '730055' },
];

const { app, browser } = useConsoleSuite();

describe('clients', () => {
  it('lists registered clients, needs a reason to reject, and passes one the clients then see', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/sys/client');
    await page.getByTestId('clients-page').waitFor();
    await page.locator('.ant-empty').first().waitFor();
    await screenshot(page, 'clients-empty-zh-CN');

    // The public endpoints take no session; the administrator's helper only carries the envelope check.
    const caller = await adminApi(app.apiUrl);
    const stateOf = (clientId: string) => caller.call(api.client.state, { query: { clientId } });
    for (const client of CLIENTS) await caller.call(api.client.register, { body: client });
    await page.reload();
    const [tablet, stranger, depot] = CLIENTS.map((client) =>
      tableRow(page, 'clients-table', client.clientId),
    ) as [ReturnType<typeof tableRow>, ReturnType<typeof tableRow>, ReturnType<typeof tableRow>];
    await depot.waitFor();
    expect(await tablet.getByTestId('clients-state-pending').textContent()).toBe(zhClients.state.pending);
    await screenshot(page, 'clients-list-zh-CN');

    // A rejection without a description is refused on the field; nothing is sent.
    await stranger.getByTestId('clients-row-reject').click();
    await page.getByTestId('clients-review-dialog').waitFor();
    await page.getByTestId('clients-review-dialog-submit').click();
    const missing = fieldError(page, 'clientReview-resultDesc');
    await missing.waitFor();
    expect(await missing.textContent()).toBe(validationMessages['v.required']['zh-CN']);
    await screenshot(page, 'clients-reject-needs-description-zh-CN');
    await page.getByTestId('clientReview-resultDesc').fill('不是本公司的设备');
    expect(
      (await clickAndAnswer(page, page.getByTestId('clients-review-dialog-submit'), api.client.review))
        .success,
    ).toBe(true);
    await toast(page, zh.common.outcome.audit.success).waitFor();
    await stranger.getByTestId('clients-state-rejected').waitFor();
    expect(await stateOf(CLIENTS[1]!.clientId)).toEqual({
      state: 'rejected',
      resultDesc: '不是本公司的设备',
    });

    // Passed after comparing the code the tablet shows.
    await tablet.getByTestId('clients-row-pass').click();
    await page.getByTestId('clients-review-dialog').waitFor();
    expect(await page.getByTestId('clients-review-code').textContent()).toBe(CLIENTS[0]!.registCode);
    await screenshot(page, 'clients-pass-dialog-zh-CN');
    expect(
      (await clickAndAnswer(page, page.getByTestId('clients-review-dialog-submit'), api.client.review))
        .success,
    ).toBe(true);
    await tablet.getByTestId('clients-state-passed').waitFor();
    expect((await stateOf(CLIENTS[0]!.clientId)).state).toBe('passed');

    await switchLanguage(page, 'lang-switch', 'en');
    await tablet.getByTestId('clients-state-passed').waitFor();
    expect(await tablet.getByTestId('clients-state-passed').textContent()).toBe(enClients.state.passed);
    await screenshot(page, 'clients-list-en');

    // Nothing matches: the empty table.
    await page.getByTestId('clients-search-keyword').fill('no such client');
    await page.getByTestId('clients-search-submit').click();
    await page.getByTestId('clients-table').locator('.ant-empty').waitFor();
    await screenshot(page, 'clients-empty-en');
  });
});
