// The forced password change at first sign-in (spec §4 Login, §5 Change password): with
// ChangePwdByFirstLogin on, a user who has not changed the initial password gets a dialog that cannot be
// dismissed, whose rules (mismatch, too weak, same as old) show on the fields; a valid change goes on to the
// redirect target, and from then on only the new password signs in. Signing out is the only other way out.
// The server holds the session too (every other call answers 403, code 1015), yet nothing the console calls
// behind the dialog fails; a session caught by the parameter being switched on is led to the same dialog.
import {
  api,
  type Endpoint,
  type ParamRow,
  ResultCode,
  resultMessages,
  validationMessages,
} from '@uiot/contracts';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  apiResponse,
  fieldError,
  location,
  openAvatarMenu,
  pathOf,
  screenshot,
  shown,
  signIn,
  storedToken,
  submitLogin,
  TEXTS,
  toast,
  useConsoleSuite,
  waitHomeLoaded,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const v = (key: keyof typeof validationMessages) => validationMessages[key]['zh-CN'];
const CAROL = { name: 'carol', password: 'Carol-Initial-1' };
const DAVE = { name: 'dave', password: 'Dave-Initial-1' };
// The strong policy (StrongPassword) is on: no user name, no runs like 123 in a new password.
const CAROL_NEW = 'Harbour-Lamp-72';
const ERIN = { name: 'erin', password: 'Erin-Initial-1' };
const ERIN_NEW = 'Harbour-Kite-83';

const { app, browser } = useConsoleSuite({
  users: [
    { ...CAROL, mustChangePassword: true },
    { ...DAVE, mustChangePassword: true },
    { ...ERIN, mustChangePassword: true },
  ],
  params: { ChangePwdByFirstLogin: 'true' },
});

/** Every API answer the page gets from now on, as `<status> <path>`. */
function recordApiAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/')) answers.push(`${response.status()} ${pathname}`);
  });
  return answers;
}

/** Nothing behind the forced dialog failed: every call answered 200, no error toast or notification. */
async function expectNothingFailed(page: Page, answers: string[]) {
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.filter((answer) => !answer.startsWith('200 '))).toEqual([]);
  expect(await page.locator('.ant-message-notice-error, .uiot-toast--error').count()).toBe(0);
  expect(await page.locator('.ant-notification-notice, .uiot-notification').count()).toBe(0);
}

/** Sets ChangePwdByFirstLogin through the API, as an administrator would on the parameters page. */
async function setForcedChange(url: string, value: 'true' | 'false'): Promise<void> {
  const signedIn = await fetch(`${url}${pathOf(api.auth.loginCheck)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'admin', pwd: ADMIN_PASSWORD }),
  });
  const { token } = ((await signedIn.json()) as { data: { token: string } }).data;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const found = await fetch(`${url}${pathOf(api.params.queryPageByName)}?name=ChangePwdByFirstLogin`, {
    headers,
  });
  const { rows } = ((await found.json()) as { data: { rows: (ParamRow & Record<string, unknown>)[] } }).data;
  const row = rows.find((r) => r.name === 'ChangePwdByFirstLogin');
  if (!row) throw new Error('ChangePwdByFirstLogin is missing');
  const { builtIn: _builtIn, updatedAt: _updatedAt, ...form } = row;
  const updated = await fetch(`${url}${pathOf(api.params.update)}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...form, val: value }),
  });
  expect(((await updated.json()) as { success: boolean }).success).toBe(true);
  await fetch(`${url}${pathOf(api.auth.logout)}`, { headers: { Authorization: `Bearer ${token}` } });
}

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
    const answers = recordApiAnswers(page);
    const changeCalls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === pathOf(api.auth.changePwd)) changeCalls.push(request);
    });

    await page.goto('/profile');
    await page.waitForURL('**/login?redirect=%2Fprofile');
    await submitLogin(page, CAROL.name, CAROL.password);

    const dialog = forcedDialog(page);
    await dialog.waitFor();
    expect(await shown(dialog.locator('.ant-modal-title'))).toBe(zh.auth.changePassword.forcedTitle);
    expect(await shown(dialog)).toContain(zh.auth.changePassword.forcedHint);
    expect(await shown(dialog)).toContain(zh.auth.changePassword.strongRule);
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
    await fillPasswords(page, CAROL.password, 'Harbour-Lamp-72', 'Harbour-Lamp-73');
    await expect
      .poll(() => fieldError(page, 'change-password-confirm').allInnerTexts())
      .toEqual([v('v.passwordMismatch')]);

    // The strong policy, as for a new staff member (finding: Abcdefg1 and Password1 were taken).
    await fillPasswords(page, CAROL.password, 'carolchanged2', 'carolchanged2');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.pwFewClasses')]);
    await fillPasswords(page, CAROL.password, 'Short1a', 'Short1a');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.pwTooShort')]);
    await fillPasswords(page, CAROL.password, 'Abcdefg1', 'Abcdefg1');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.pwSequence')]);
    await fillPasswords(page, CAROL.password, 'Password1', 'Password1');
    await expect
      .poll(() => fieldError(page, 'change-password-new').allInnerTexts())
      .toEqual([v('v.pwCommon')]);

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
    // The server holds the user too, yet nothing the console calls before the change is refused.
    expect(answers).toEqual(
      expect.arrayContaining([
        `200 ${pathOf(api.auth.getUserInfo)}`,
        `200 ${pathOf(api.system.getFeatureFlags)}`,
      ]),
    );
    await expectNothingFailed(page, answers);

    // A valid change: success toast, the dialog goes, the console opens the page that was asked for.
    const response = apiResponse(page, api.auth.changePwd);
    await fillPasswords(page, CAROL.password, CAROL_NEW, CAROL_NEW);
    expect(((await (await response).json()) as { success: boolean }).success).toBe(true);
    await toast(page, zh.auth.changePassword.success).waitFor();
    await page.waitForURL('**/profile');
    await page.getByTestId('profile-details').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('sidebar').waitFor();
    // Nothing went to the error log on the way (its navbar button shows only when it has entries).
    expect(await page.getByTestId('error-log-button').count()).toBe(0);

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
    const answers = recordApiAnswers(page);
    await page.goto('/login');
    await submitLogin(page, DAVE.name, DAVE.password);
    await forcedDialog(page).waitFor();
    const token = await storedToken(page);
    expect(token).toBeTruthy();

    // The server refuses the console's other calls to this session until the password is changed.
    const request = (endpoint: Endpoint) =>
      fetch(`${app.apiUrl}${pathOf(endpoint)}`, {
        headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'zh-CN' },
      });
    const refused = await request(api.home.getHomeOverview);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      success: false,
      code: ResultCode.PasswordChangeRequired,
      message: resultMessages.PasswordChangeRequired['zh-CN'],
    });
    // Only what the dialog needs answers: the user and the feature flags (getUserInfo tells the first sign-in).
    expect((await request(api.auth.getUserInfo)).status).toBe(200);
    expect((await request(api.system.getFeatureFlags)).status).toBe(200);
    for (const endpoint of [api.auth.isFirstLogin, api.auth.queryMenuRight])
      expect((await request(endpoint)).status).toBe(403);

    // Another page of the console, or a reload, leads back to the same dialog.
    await page.goto('/home');
    await page.waitForURL('**/login?redirect=%2Fhome');
    await forcedDialog(page).waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await expectNothingFailed(page, answers);

    const logout = apiResponse(page, api.auth.logout);
    await page.getByTestId('change-password-sign-out').click();
    expect((await logout).status()).toBe(200);
    await forcedDialog(page).waitFor({ state: 'detached' });
    await page.getByTestId('login-form').waitFor();
    expect(location(page)).toBe('/login?redirect=%2Fhome');
    expect(await storedToken(page)).toBeNull();
    const userInfo = await fetch(`${app.apiUrl}${pathOf(api.auth.getUserInfo)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(userInfo.status).toBe(401);
  });

  it('holds a session at the dialog, without an error, when the parameter is switched on during it', async () => {
    await setForcedChange(app.apiUrl, 'false');
    try {
      const { page } = await browser.open(app.url);
      await signIn(page, ERIN.name, ERIN.password);
      await page.waitForURL('**/home');
      await waitHomeLoaded(page);
      const menu = await openAvatarMenu(page);
      await menu.getByTestId('avatar-menu-profile').click();
      await page.getByTestId('profile-details').waitFor();

      await setForcedChange(app.apiUrl, 'true');
      const answers = recordApiAnswers(page);
      const overview = apiResponse(page, api.home.getHomeOverview);
      await page.locator('[data-testid="tags-view-item"][data-path="/home"]').click();
      expect((await overview).status()).toBe(403);

      // The console turns the refusal into the forced dialog, keeping the way back, and shows no failure.
      const dialog = forcedDialog(page);
      await dialog.waitFor();
      await page.waitForURL('**/login?redirect=%2Fhome');
      expect(await page.getByTestId('sidebar').count()).toBe(0);
      expect(answers.filter((answer) => !answer.startsWith('200 '))).toEqual([
        `403 ${pathOf(api.home.getHomeOverview)}`,
      ]);
      expect(await page.locator('.ant-message-notice-error, .uiot-toast--error').count()).toBe(0);
      expect(await page.locator('.ant-notification-notice, .uiot-notification').count()).toBe(0);

      await fillPasswords(page, ERIN.password, ERIN_NEW, ERIN_NEW);
      await toast(page, zh.auth.changePassword.success).waitFor();
      await page.waitForURL('**/home');
      await waitHomeLoaded(page);
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.getByTestId('error-log-button').count()).toBe(0);
    } finally {
      await setForcedChange(app.apiUrl, 'true');
    }
  });
});
