// Signing in and out (spec §2 Shell, §4 Login and Navigation): the shell after sign-in, a wrong password,
// deep links through the login page, the 404 page, logout revoking the token, and the avatar menu of the
// built-in admin and of a normal user with a wrong old password in the change-password dialog.
import { api, resultMessages } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  apiResponse,
  fieldError,
  fill,
  location,
  openAvatarMenu,
  pathOf,
  shown,
  signIn,
  storedToken,
  submitLogin,
  TEXTS,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const USER = { name: 'bob', password: 'Bob-Initial-1' };

const { app, browser } = useConsoleSuite({ users: [{ ...USER, mustChangePassword: false }] });

describe('sign-in', () => {
  it('a wrong password shows the server message in zh-CN and stays on /login', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/');
    await page.waitForURL('**/login');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');

    const response = await submitLogin(page, 'admin', 'Not-The-Password-1');
    const body = (await response.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toBe(resultMessages.LoginFailed['zh-CN']);
    await toast(page, body.message).waitFor();

    expect(location(page)).toBe('/login');
    await expect.poll(() => page.getByTestId('login-password').inputValue()).toBe('');
    expect(await storedToken(page)).toBeNull();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
  });

  it('signing in as admin shows the shell: sidebar, welcome line, pinned home tab, breadcrumb', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/home');

    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    expect(await shown(page.getByTestId('sidebar-item-Home'))).toBe(zh.menu.home);
    // Profile is a hidden entry: it has a route but no sidebar item.
    expect(await page.getByTestId('sidebar-item-Profile').count()).toBe(0);

    expect(await shown(page.getByTestId('welcome'))).toBe(fill(zh.shell.navbar.welcome, { name: 'admin' }));

    const tabs = page.getByTestId('tags-view-item');
    expect(await tabs.count()).toBe(1);
    expect(await tabs.first().getAttribute('data-path')).toBe('/home');
    expect(await tabs.first().getAttribute('data-affix')).toBe('true');
    expect(await tabs.first().getAttribute('data-active')).toBe('true');
    expect(await tabs.first().getByTestId('tags-view-close').count()).toBe(0);

    // On home the breadcrumb is home alone, and as the last item it is not a link.
    const crumbs = page.getByTestId('breadcrumb').locator('li:not(.ant-breadcrumb-separator)');
    expect(await crumbs.allInnerTexts()).toEqual([zh.menu.home]);
    expect(await crumbs.first().locator('a').count()).toBe(0);

    // On another page it starts at home (a link) and ends at the page (not a link).
    const menu = await openAvatarMenu(page);
    await menu.getByTestId('avatar-menu-profile').click();
    await page.waitForURL('**/profile');
    await page.getByTestId('profile-details').waitFor();
    await expect.poll(() => crumbs.allInnerTexts()).toEqual([zh.menu.home, zh.menu.profile]);
    expect(await crumbs.first().locator('a').getAttribute('href')).toBe('/home');
    expect(await crumbs.last().locator('a').count()).toBe(0);
    await expect.poll(() => page.title()).toContain(zh.menu.profile);
  });
});

describe('navigation', () => {
  it('a deep link while signed out goes through /login?redirect=… and comes back after sign-in', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/profile?from=mail');
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/profile?from=mail');

    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/profile?from=mail');
    await page.getByTestId('profile-details').waitFor();
    const profileTab = page.locator('[data-testid="tags-view-item"][data-path="/profile"]');
    expect(await profileTab.getAttribute('data-active')).toBe('true');

    // A reload keeps the session (the stored token is turned back into the user).
    await page.reload();
    await page.getByTestId('profile-details').waitFor();
    expect(location(page)).toBe('/profile?from=mail');

    // /login is closed to a signed-in user.
    await page.goto('/login');
    await page.waitForURL('**/home');
  });

  it('an unknown path shows the 404 page, whose button goes home', async () => {
    const { page } = await browser.open(app.url);
    // Signed out, the 404 page itself is public.
    await page.goto('/404');
    await page.getByTestId('page-404').waitFor();
    expect(await shown(page.getByTestId('page-404'))).toContain(zh.errors.notFound);

    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    const notFound = page.getByTestId('page-404');
    await notFound.waitFor();
    expect(await shown(notFound)).toContain(zh.errors.notFound);
    await notFound.getByRole('button').click();
    await page.waitForURL('**/home');
    await page.getByTestId('sidebar').waitFor();
  });
});

describe('sign-out', () => {
  it('logout returns to /login and the old token gets HTTP 401', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/home');
    const token = await storedToken(page);
    expect(token).toBeTruthy();

    const userInfo = () =>
      fetch(`${app.apiUrl}${pathOf(api.auth.getUserInfo)}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
    expect((await userInfo()).status).toBe(200);

    const menu = await openAvatarMenu(page);
    const logout = apiResponse(page, api.auth.logout);
    await menu.getByTestId('avatar-menu-sign-out').click();
    expect((await logout).status()).toBe(200);
    await page.waitForURL('**/login**');
    await page.getByTestId('login-form').waitFor();
    expect(await storedToken(page)).toBeNull();
    expect(await page.getByTestId('sidebar').count()).toBe(0);

    expect((await userInfo()).status).toBe(401);

    // Pages of the console now lead back to the login page.
    await page.goto('/home');
    await page.waitForURL('**/login?redirect=%2Fhome');
  });
});

describe('avatar menu', () => {
  it('hides change info and change password for the built-in admin', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const menu = await openAvatarMenu(page);
    expect(await shown(menu.getByTestId('avatar-menu-profile'))).toBe(zh.shell.avatar.profile);
    expect(await shown(menu.getByTestId('avatar-menu-sign-out'))).toBe(zh.shell.avatar.signOut);
    expect(await menu.getByTestId('avatar-menu-change-info').count()).toBe(0);
    expect(await menu.getByTestId('avatar-menu-change-password').count()).toBe(0);

    // The profile page offers no change either.
    await menu.getByTestId('avatar-menu-profile').click();
    await page.getByTestId('profile-details').waitFor();
    expect(await page.getByTestId('profile-change-info').count()).toBe(0);
    expect(await page.getByTestId('profile-change-password').count()).toBe(0);
  });

  it('shows them for a normal user; a wrong old password shows the server message and keeps the dialog', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, USER.name, USER.password);
    expect(await shown(page.getByTestId('welcome'))).toBe(fill(zh.shell.navbar.welcome, { name: USER.name }));
    const menu = await openAvatarMenu(page);
    expect(await shown(menu.getByTestId('avatar-menu-change-info'))).toBe(zh.shell.avatar.changeInfo);
    expect(await shown(menu.getByTestId('avatar-menu-change-password'))).toBe(zh.shell.avatar.changePassword);
    await menu.getByTestId('avatar-menu-change-password').click();

    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('change-password') });
    await dialog.waitFor();
    expect(await shown(dialog.locator('.ant-modal-title'))).toBe(zh.auth.changePassword.title);
    await page.getByTestId('change-password-old').fill('Wrong-Old-Pass-9');
    await page.getByTestId('change-password-new').fill('Harbour-Lamp-72');
    await page.getByTestId('change-password-confirm').fill('Harbour-Lamp-72');
    const response = apiResponse(page, api.auth.changePwd);
    await page.getByTestId('change-password-submit').click();
    const body = (await (await response).json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toBe(resultMessages.OldPasswordWrong['zh-CN']);
    await toast(page, body.message).waitFor();

    // Failure keeps the dialog open with what was typed; cancel closes it.
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.getByTestId('change-password-new').inputValue()).toBe('Harbour-Lamp-72');
    expect(await fieldError(page, 'change-password-new').count()).toBe(0);
    await page.getByTestId('change-password-cancel').click();
    await dialog.waitFor({ state: 'hidden' });

    // The password was not changed: the session is still valid and the old password still signs in.
    expect(location(page)).toBe('/home');
    const check = await fetch(`${app.apiUrl}${pathOf(api.auth.loginCheck)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: USER.name, pwd: USER.password }),
    });
    expect(((await check.json()) as { success: boolean }).success).toBe(true);
  });
});
