// The login page as an operator uses it, by keyboard and with a screen reader (spec §2, §4 Login): the
// shared schema's messages under the fields, announced and tied to them; focus on the first field to fix;
// the caps-lock warning; showing the password; the language menu by keyboard.
import { validationMessages } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { shown, TEXTS, useConsoleSuite } from './support/ui.ts';

const v = (key: keyof typeof validationMessages, lang: 'zh-CN' | 'en' = 'zh-CN') =>
  validationMessages[key][lang];

const { app, browser } = useConsoleSuite();

describe('the login page', () => {
  it('shows the schema’s messages under the fields, tied to them, and focuses the first one to fix', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    const name = page.getByTestId('login-username');
    const password = page.getByTestId('login-password');
    await name.waitFor();
    expect(await name.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await name.getAttribute('aria-invalid')).toBe('false');

    await page.getByTestId('login-submit').click();
    const nameError = page.locator(`#${await name.getAttribute('aria-describedby')} [role="alert"]`);
    expect(await shown(nameError)).toBe(v('v.username'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.evaluate((input) => input === document.activeElement)).toBe(true);
    const passwordError = page.locator(`#${await password.getAttribute('aria-describedby')} [role="alert"]`);
    expect(await shown(passwordError)).toBe(v('v.password'));

    // Whitespace is no name (the schema trims it); typing a name clears that message only.
    await name.fill('   ');
    expect(await shown(nameError)).toBe(v('v.username'));
    await name.fill('admin');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('false');
    expect(await name.getAttribute('aria-describedby')).toBeNull();
    expect(await shown(passwordError)).toBe(v('v.password'));
    await page.keyboard.press('Enter');
    expect(await password.evaluate((input) => input === document.activeElement)).toBe(true);
  });

  it('warns of caps lock on the password, and shows the password on request', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    const password = page.getByTestId('login-password');
    await password.fill('Secret-1');
    await password.dispatchEvent('keydown', { key: 'A', modifierCapsLock: true });
    const warning = page.getByTestId('login-caps-lock');
    expect(await shown(warning)).toContain(TEXTS['zh-CN'].auth.login.capsLock);
    await password.dispatchEvent('keyup', { key: 'A', modifierCapsLock: false });
    await warning.waitFor({ state: 'detached' });

    const toggle = page.getByRole('button', { name: TEXTS['zh-CN'].auth.login.showPassword });
    expect(await password.getAttribute('type')).toBe('password');
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await password.inputValue()).toBe('Secret-1');
  });

  it('switches the language by keyboard from the language menu', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    const trigger = page.getByTestId('login-language');
    expect(await trigger.getAttribute('aria-label')).toBe(TEXTS['zh-CN'].common.language.label);
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const checked = menu.locator('[aria-checked="true"]');
    expect(await shown(checked)).toBe(TEXTS['zh-CN'].common.language['zh-CN']);
    expect(await checked.evaluate((item) => item === document.activeElement)).toBe(true);

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await trigger.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.keyboard.press('ArrowDown');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByTestId('login-submit').click();
    const name = page.getByTestId('login-username');
    expect(await shown(page.locator(`#${await name.getAttribute('aria-describedby')} [role="alert"]`))).toBe(
      v('v.username', 'en'),
    );
  });
});
