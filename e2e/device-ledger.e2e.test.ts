// The device ledger (spec §2 /device, §3 Device, Lock code, Adjust value, §5 "registered devices cannot be
// deleted until unregistered"): the administrator adds an operation unit and a device type, then a device
// with a lock code and a correction value, registers it, fails to delete it, unregisters it and deletes it.
// The ledger and its tabs are photographed in zh-CN and en.
import { api, resultMessages, validationMessages } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import enLedger from '../apps/web/src/locales/en/ledger.json' with { type: 'json' };
import zhDeviceType from '../apps/web/src/locales/zh-CN/deviceType.json' with { type: 'json' };
import zhLedger from '../apps/web/src/locales/zh-CN/ledger.json' with { type: 'json' };
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  clickAndAnswer,
  fieldError,
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

const UNIT = 'E2E 荃湾线车厂东区第三号维修工场';
const TYPE = { name: 'E2E 物联网挂锁', code: 'E2E-NB' };
const DEVICE = { name: 'E2E 荃湾站A出口配电房一号门锁', imei: '861234567890123' };
const RFID = '0a1b2c3d4e5f';

const { app, browser } = useConsoleSuite();

describe('device ledger', () => {
  it('adds a device with a lock code and a correction value, and deletes it only once unregistered', async () => {
    const { page } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);

    // An operation unit and a device type to put the device in.
    await page.goto('/device/unit');
    await page.getByTestId('units-create').click();
    await page.getByTestId('unit-name').fill(UNIT);
    expect((await clickAndAnswer(page, page.getByTestId('units-dialog-submit'), api.unit.save)).success).toBe(
      true,
    );

    await page.goto('/device/device-type');
    await page.getByTestId('deviceTypes-create').click();
    await page.getByTestId('deviceType-name').fill(TYPE.name);
    await page.getByTestId('deviceType-code').fill(TYPE.code);
    await chooseOption(page, 'deviceType-category', zhDeviceType.category.IoT);
    expect(
      (await clickAndAnswer(page, page.getByTestId('deviceTypes-dialog-submit'), api.deviceType.save))
        .success,
    ).toBe(true);

    // The device: name, unit and type are required; the IMEI must be 15 digits.
    await page.goto('/device/device');
    await page.getByTestId('ledger-page').waitFor();
    await page.getByTestId('ledger-create').click();
    await page.getByTestId('ledger-dialog').waitFor();
    await page.getByTestId('ledger-dialog-submit').click();
    await expect
      .poll(() => fieldError(page, 'device-name').allInnerTexts())
      .toEqual([validationMessages['v.required']['zh-CN']]);
    await page.getByTestId('device-name').fill(DEVICE.name);
    await chooseOption(page, 'device-unitId', UNIT);
    await chooseOption(page, 'device-typeId', TYPE.name);
    await page.getByTestId('device-imei').fill('86123456789012');
    await page.getByTestId('device-name').click();
    await expect
      .poll(() => fieldError(page, 'device-imei').allInnerTexts())
      .toEqual([validationMessages['v.imei']['zh-CN']]);
    await page.getByTestId('device-imei').fill(DEVICE.imei);
    expect(
      (await clickAndAnswer(page, page.getByTestId('ledger-dialog-submit'), api.device.save)).success,
    ).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    const deviceRow = tableRow(page, 'ledger-table', DEVICE.name);
    await deviceRow.waitFor();
    expect(await shown(deviceRow)).toContain(zhLedger.regist.unregistered);

    // A lock code (the RFID is upper-cased) and a correction value in the device's details.
    await deviceRow.getByTestId('ledger-row-details').click();
    const details = page.getByTestId('device-details');
    await details.waitFor();
    await details.getByTestId('tab-lockCodes').click();
    await details.getByTestId('lockCodes-create').click();
    await page.getByTestId('lockCode-rfidCode').fill(RFID);
    expect(
      (await clickAndAnswer(page, page.getByTestId('lockCodes-dialog-submit'), api.lockCode.save)).success,
    ).toBe(true);
    await tableRow(page, 'lockCodes-table', RFID.toUpperCase()).waitFor();
    await screenshot(page, 'ledger-lock-codes-zh-CN');

    await details.getByTestId('tab-adjustValues').click();
    await details.getByTestId('adjustValues-create').click();
    await page.getByTestId('adjustValue-name').fill('温度偏移');
    await page.getByTestId('adjustValue-value').fill('-1.5');
    expect(
      (await clickAndAnswer(page, page.getByTestId('adjustValues-dialog-submit'), api.adjustValue.save))
        .success,
    ).toBe(true);
    const correction = tableRow(page, 'adjustValues-table', '温度偏移');
    await correction.waitFor();
    expect(await shown(correction)).toContain('-1.5');
    await screenshot(page, 'ledger-correction-values-zh-CN');

    // The same in English.
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    await screenshot(page, 'ledger-zh-CN');
    await switchLanguage(page, 'lang-switch', 'en');
    await page.getByTestId('ledger-table').getByText(enLedger.regist.unregistered).waitFor();
    await screenshot(page, 'ledger-en');
    await deviceRow.getByTestId('ledger-row-details').click();
    await details.getByTestId('tab-lockCodes').click();
    await tableRow(page, 'lockCodes-table', RFID.toUpperCase()).waitFor();
    await screenshot(page, 'ledger-lock-codes-en');
    await details.getByTestId('tab-adjustValues').click();
    await correction.waitFor();
    await screenshot(page, 'ledger-correction-values-en');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    await switchLanguage(page, 'lang-switch', 'zh-CN');

    // Registered: deleting is refused with the spec's message.
    expect(
      (await clickAndAnswer(page, deviceRow.getByTestId('ledger-row-register'), api.device.regist)).success,
    ).toBe(true);
    await expect.poll(() => shown(deviceRow)).toContain(zhLedger.regist.registered);
    await deviceRow.getByTestId('ledger-row-delete').click();
    const refused = await clickAndAnswer(page, page.getByTestId('ledger-confirm-ok'), api.device.del);
    expect(refused).toMatchObject({ success: false, code: 1110 });
    await toast(page, resultMessages.DeviceRegistered['zh-CN']).waitFor();
    expect(await deviceRow.count()).toBe(1);

    // Unregistered: deleting works, and the row is gone.
    await deviceRow.getByTestId('ledger-row-unregister').click();
    expect(
      (await clickAndAnswer(page, page.getByTestId('ledger-confirm-ok'), api.device.cancelRegist)).success,
    ).toBe(true);
    await expect.poll(() => shown(deviceRow)).toContain(zhLedger.regist.unregistered);
    await deviceRow.getByTestId('ledger-row-delete').click();
    expect((await clickAndAnswer(page, page.getByTestId('ledger-confirm-ok'), api.device.del)).success).toBe(
      true,
    );
    await toast(page, zh.common.outcome.delete.success).waitFor();
    await expect.poll(() => deviceRow.count()).toBe(0);
  });
});
