import { api } from '@uiot/contracts';
import { startFleet } from '@uiot/simulator';
import { connectAsync } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/lib/test-support.ts';
import zhLedger from '../apps/web/src/locales/zh-CN/ledger.json' with { type: 'json' };
import { adminApi, ledgerDevices } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  codeText,
  screenshot,
  shown,
  shownMenu,
  signIn,
  tableRow,
  useConsoleSuite,
} from './support/ui.ts';

const MQTT_PORT = await freePort();
const OLD = { name: 'E2E 荃湾站B出口通信机房旧锁', code: 'E2E-OLD-0001' };
const NEW = { name: 'E2E 备用智能门锁', code: 'E2E-NEW-0001' };
const OLD_PASSWORD = '88120466';

const { app, browser } = useConsoleSuite({ env: { MQTT_PORT: String(MQTT_PORT) } });

describe('one-click lock replacement', () => {
  it('shows the new lock its secret once, signs the old one out and completes once the password is taken', async () => {
    const admin = await adminApi(app.apiUrl);
    const ids = await ledgerDevices(admin, 'E2E-REPL', [OLD, NEW]);
    const oldCredential = (await admin.call(api.device.regist, { query: { id: ids[0]! } }))!;
    await admin.call(api.devicePassword.save, { body: { deviceId: ids[0]!, password: OLD_PASSWORD } });
    const oldLock = await connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, {
      protocolVersion: 4,
      clientId: `dev-${OLD.code}`,
      username: OLD.code,
      password: oldCredential.secret,
      reconnectPeriod: 0,
    });
    const oldLockClosed = new Promise<void>((resolve) => oldLock.once('close', () => resolve()));

    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/device/device');
    const oldRow = tableRow(page, 'ledger-table', OLD.name);
    await oldRow.waitFor();
    await oldRow.getByTestId('ledger-row-more').click();
    await (await shownMenu(page, 'ledger-row-replaceLock')).getByTestId('ledger-row-replaceLock').click();
    await page.getByTestId('replacement-dialog').waitFor();
    await chooseOption(page, 'replacement-select', NEW.name);
    await page.getByTestId('replacement-start').click();

    // Re-registration issued the new lock's credential: shown now, once.
    const credential = page.getByTestId('deviceCredential');
    await credential.waitFor();
    expect(await codeText(page.getByTestId('deviceCredential-username'))).toBe(NEW.code);
    const secret = await codeText(page.getByTestId('deviceCredential-password'));
    expect(secret.length).toBeGreaterThanOrEqual(22);
    await screenshot(page, 'replacement-credential-zh-CN');
    await page.getByTestId('deviceCredential-close').click();
    await credential.waitFor({ state: 'hidden' });

    // The old lock was signed out of the broker when its registration was cancelled.
    await oldLockClosed;
    await expect(
      connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, {
        protocolVersion: 4,
        username: OLD.code,
        password: oldCredential.secret,
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow(/Not authorized|Bad username or password/);

    // The new lock was not connected: the old password waits for it.
    const sendStep = page.getByTestId('replacement-state-SendOldPassword');
    expect(await shown(sendStep)).toContain(zhLedger.replacement.state.Pending);
    await screenshot(page, 'replacement-pending-zh-CN');

    // Signed in with the secret the dialog showed, the new lock takes the password; a retry sees it done.
    const fleet = startFleet({
      devices: [{ stationId: oldCredential.stationId, code: NEW.code, secret, protocol: 'mqtt' }],
      mqttUrl: `mqtt://127.0.0.1:${MQTT_PORT}`,
      mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
      seed: 11,
    });
    try {
      await fleet.ready;
      await expect
        .poll(
          async () => {
            const retry = page.getByTestId('replacement-retry');
            if (await retry.isVisible()) await retry.click();
            return page.getByTestId('replacement-completed').isVisible();
          },
          { timeout: 60_000, interval: 2_000 },
        )
        .toBe(true);
      expect(await shown(page.getByTestId('replacement-completed'))).toContain(
        zhLedger.replacement.completed,
      );
      await screenshot(page, 'replacement-completed-zh-CN');
      // Nowhere on the page is the password.
      expect(await page.content()).not.toContain(OLD_PASSWORD);
    } finally {
      await fleet.stop();
      oldLock.end(true);
    }
  });
});
