// Device credentials and telemetry records (spec §2 /data-statistics/iot-message, §3 Device history): the
// administrator registers a lock with a code and is shown its secret and its offline-PIN secret once, and a
// new PIN secret on request; the lock signs in to the broker with its secret and reports; the report appears
// on the telemetry records page, raw and read. Photographed in zh-CN and en.
import { encodeNativeReport } from '@uiot/device-protocol';
import { connectAsync } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import enIot from '../apps/web/src/locales/en/iot.json' with { type: 'json' };
import zhIot from '../apps/web/src/locales/zh-CN/iot.json' with { type: 'json' };
import { adminApi, ledgerDevices } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  codeText,
  screenshot,
  shown,
  shownMenu,
  signIn,
  switchLanguage,
  tableRow,
  useConsoleSuite,
} from './support/ui.ts';

const MQTT_PORT = await freePort();
const DEVICE = { name: 'E2E 荃湾站B出口通信机房智能门锁', code: 'E2E-LOCK-0001' };

const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });

describe('device credentials and telemetry records', () => {
  it('shows a new credential once, and the report the lock sends with it on the telemetry page', async () => {
    const admin = await adminApi(app.apiUrl);
    await ledgerDevices(admin, 'E2E-SMART', [DEVICE]);

    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/device/device');
    const deviceRow = tableRow(page, 'ledger-table', DEVICE.name);
    await deviceRow.waitFor();
    await deviceRow.getByTestId('ledger-row-register').click();
    const dialog = page.getByTestId('deviceCredential');
    await dialog.waitFor();
    expect(await codeText(page.getByTestId('deviceCredential-username'))).toBe(DEVICE.code);
    // The text only, without its copy button.
    const secret = await codeText(page.getByTestId('deviceCredential-password'));
    expect(secret.length).toBeGreaterThanOrEqual(22);
    const stationId = (
      await page.getByTestId('deviceCredential-stationId').locator('code').innerText()
    ).trim();
    const pinSecret = await codeText(page.getByTestId('deviceCredential-pinSecret'));
    expect(pinSecret).toMatch(/^[0-9a-f]{40}$/);
    await screenshot(page, 'device-credential-zh-CN');
    await page.getByTestId('deviceCredential-close').click();
    await dialog.waitFor({ state: 'hidden' });

    // A new PIN secret, for a lock provisioned again: shown once, another than the first.
    await deviceRow.getByTestId('ledger-row-more').click();
    await (await shownMenu(page, 'ledger-row-issuePinSecret'))
      .getByTestId('ledger-row-issuePinSecret')
      .click();
    await page.getByTestId('ledger-confirm-ok').click();
    await page.getByTestId('pinSecret').waitFor();
    const newPinSecret = await codeText(page.getByTestId('pinSecret-password'));
    expect(newPinSecret).toMatch(/^[0-9a-f]{40}$/);
    expect(newPinSecret).not.toBe(pinSecret);
    await screenshot(page, 'pin-secret-zh-CN');
    await page.getByTestId('pinSecret-close').click();
    await page.getByTestId('pinSecret').waitFor({ state: 'hidden' });

    // The lock signs in with what the dialog showed and reports.
    const lock = await connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, {
      protocolVersion: 4,
      clientId: `dev-${DEVICE.code}`,
      username: DEVICE.code,
      password: secret,
      reconnectPeriod: 0,
    });
    const report = encodeNativeReport({
      messageId: 'e2e-0001',
      event: 'doorChanged',
      lock: 'open',
      door: 'open',
      battery: 76,
      rssi: -71,
      props: { temperature: 23.5 },
    });
    await lock.publishAsync(`dev/${stationId}/${DEVICE.code}/up`, report, { qos: 1 });
    await lock.endAsync();

    await page.goto('/data-statistics/iot-message');
    const record = tableRow(page, 'iotMessage-table', DEVICE.name);
    await expect
      .poll(
        async () => {
          await page
            .getByTestId('iotMessage-search-submit')
            .click()
            .catch(() => undefined);
          return record.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(await shown(record)).toContain(DEVICE.code);
    expect(await shown(record)).toContain(zhIot.protocol.mqtt);
    await page.getByTestId('iotMessage-page').getByText(zhIot.message.column.rawMessage).first().waitFor();
    await screenshot(page, 'iot-message-zh-CN');
    await record.getByTestId('iotMessage-rawMessage').click();
    const details = page.getByTestId('iotMessage-rawMessage-details');
    await details.waitFor();
    expect(await shown(details)).toContain('"battery": 76');
    await screenshot(page, 'iot-message-raw-zh-CN');
    await page.keyboard.press('Escape');

    await switchLanguage(page, 'lang-switch', 'en');
    await page.getByTestId('iotMessage-page').getByText(enIot.message.column.rawMessage).first().waitFor();
    expect(await shown(record)).toContain(enIot.protocol.mqtt);
    await screenshot(page, 'iot-message-en');
  });
});
