// The forced password change at first sign-in (spec §4 Login, §5 Change password): with
// ChangePwdByFirstLogin on, a user who has not changed the initial password gets a dialog that cannot be
// dismissed, whose rules (mismatch, too weak, same as old) show on the fields; a valid change goes on to the
// redirect target, and from then on only the new password signs in. Signing out is the only other way out.
import { resultMessages, validationMessages } from '@uiot/contracts';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiResponse,
  fieldError,
  location,
  openAvatarMenu,
  screenshot,
  shown,
  signIn,
  storedToken,
  submitLogin,
  TEXTS,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const v = (key: keyof typeof validationMessages) => validationMessages[key]['zh-CN'];
const CAROL = { name: 'carol', password: 'Carol-Initial-1' };
const DAVE = { name: 'dave', password: 'Dave-Initial-1' };
const CAROL_NEW = 'Carol-Changed-2';

const { app, browser } = useConsoleSuite({
  users: [
    { ...CAROL, mustChangePassword: true },
    { ...DAVE, mustChangePassword: true },
  ],
  params: { ChangePwdByFirstLogin: 'true' },
});

function forcedDialog(page: Page) {
  return page.locator('.ant-modal').filter({ has: page.getByTestId('change-password') });
}

async function fillPasswords(page: Page, oldPwd: string, newPwd: string, confirmPwd: string) {
  await page.getByTestId('change-password-old').fill(oldPwd);
  await page.getByTestId('change-password-new').fill(newPwd);
  await page.getByTestId('change-password-confirm').fill(confirmPwd);
  await page.getByTestId('change-password-submit').click();
}

describe('forced password change', () => {
  it('cannot be dismissed, checks the rules, and a valid change lands on the redirect target', async () => {
    const { page } = await browser.open(app.url);
    const changeCalls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/staff/changePwd') changeCalls.push(request);
    });

    await page.goto('/profile');
    await page.waitForURL('**/login?redirect=%2Fprofile');
    await submitLogin(page, CAROL.name, CAROL.password);

    const dialog = forcedDialog(page);
    await dialog.waitFor();
    expect(await shown(dialog.locator('.ant-modal-title'))).toBe(zh.auth.changePassword.forcedTitle);
    expect(await shown(dialog)).toContain(zh.auth.changePassword.forcedHint);
    expect(await shown(dialog)).toContain(zh.auth.changePassword.rule);
    // Held at the login page with the way back kept; no shell behind the dialog.
    expect(location(page)).toBe('/login?redirect=%2Fprofile');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await screenshot(page, 'forced-password-change-zh-CN');

    // No close icon, no cancel button; Escape and a click beside the dialog leave it open.
    expect(await dialog.locator('.ant-modal-close').count()).toBe(0);
    expect(await page.getByTestId('change-password-cancel').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.mouse.click(20, 20);
    await page.mouse.click(1260, 780);
    expect(await dialog.isVisible()).toBe(true);

    // Rules of spec §5, each on its field, and none of these reaches the server.
    await fillPasswords(page, CAROL.password, 'Carol-Changed-2', 'Carol-Changed-3');
    await expect
      .poll(() => fieldError(page, 'change-password-confirm').allInnerTexts())
      .toEqual([v('v.passwordMismatch')]);

    await fillPasswords(page, CAROL.password, 'carolchanged2', 'carolchanged2');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.passwordRule')]);
    await fillPasswords(page, CAROL.password, 'Short1a', 'Short1a');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.passwordRule')]);

    await fillPasswords(page, CAROL.password, CAROL.password, CAROL.password);
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.passwordSameAsOld')]);

    await page.getByTestId('change-password-old').fill('');
    await page.getByTestId('change-password-submit').click();
    await expect
      .poll(() => fieldError(page, 'change-password-old').allInnerTexts())
      .toEqual([v('v.oldPassword')]);
    expect(changeCalls).toHaveLength(0);
    expect(await dialog.isVisible()).toBe(true);

    // A valid change: success toast, the dialog goes, the console opens the page that was asked for.
    const response = apiResponse(page, '/api/staff/changePwd');
    await fillPasswords(page, CAROL.password, CAROL_NEW, CAROL_NEW);
    expect(((await (await response).json()) as { success: boolean }).success).toBe(true);
    await toast(page, zh.auth.changePassword.success).waitFor();
    await page.waitForURL('**/profile');
    await page.getByTestId('profile-details').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('sidebar').waitFor();

    // The new password is the one that works now.
    const menu = await openAvatarMenu(page);
    await menu.getByTestId('avatar-menu-sign-out').click();
    await page.getByTestId('login-form').waitFor();

    const old = await submitLogin(page, CAROL.name, CAROL.password);
    expect(((await old.json()) as { message: string }).message).toBe(resultMessages.LoginFailed['zh-CN']);
    await toast(page, resultMessages.LoginFailed['zh-CN']).waitFor();
    expect(await storedToken(page)).toBeNull();

    await signIn(page, CAROL.name, CAROL_NEW);
    await page.getByTestId('sidebar').waitFor();
    expect(await forcedDialog(page).count()).toBe(0);
  });

  it('blocks every page until the change, and its sign-out button leaves', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    await submitLogin(page, DAVE.name, DAVE.password);
    await forcedDialog(page).waitFor();
    const token = await storedToken(page);
    expect(token).toBeTruthy();

    // Another page of the console, or a reload, leads back to the same dialog.
    await page.goto('/home');
    await page.waitForURL('**/login?redirect=%2Fhome');
    await forcedDialog(page).waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);

    const logout = apiResponse(page, '/api/staff/logout');
    await page.getByTestId('change-password-sign-out').click();
    expect((await logout).status()).toBe(200);
    await forcedDialog(page).waitFor({ state: 'detached' });
    await page.getByTestId('login-form').waitFor();
    expect(location(page)).toBe('/login?redirect=%2Fhome');
    expect(await storedToken(page)).toBeNull();
    const userInfo = await fetch(`${app.url}/api/staff/getUserInfo`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(userInfo.status).toBe(401);
  });
});
