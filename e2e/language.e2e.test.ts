// Languages (spec §1, §2): the login page and the shell re-render in zh-CN (default), en and zh-TW with the
// texts of the console's locale files, server messages follow the language, and the choice is remembered
// after a reload and across sign-in. Writes the screenshots of the login page and of the shell (home) in
// each language to .test-artifacts/screenshots/.
import { BUILD_VERSION, LANGUAGES, type Lang, type RuntimeConfig, resultMessages } from '@uiot/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  fill,
  openAvatarMenu,
  openMenu,
  screenshot,
  shown,
  signIn,
  squash,
  submitLogin,
  switchLanguage,
  TEXTS,
  toast,
  useConsoleSuite,
  waitHomeLoaded,
} from './support/ui.ts';

const LANGUAGE_STORAGE_KEY = 'uiot.language';

const { app, browser } = useConsoleSuite();
let systemTitle: RuntimeConfig['system']['title'];

// Runs after the suite's own start-up hook: the console is up.
beforeAll(async () => {
  const config = (await (await fetch(`${app.apiUrl}/config.json`)).json()) as RuntimeConfig;
  systemTitle = config.system.title;
});

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

async function expectLoginIn(page: Page, lang: Lang): Promise<void> {
  const { auth, common } = TEXTS[lang];
  expect(await htmlLang(page)).toBe(lang);
  await expect
    .poll(() => shown(page.getByTestId('login-submit')))
    .toSatisfy((text: string) => squash(text) === squash(auth.login.submit));
  expect(await page.getByTestId('login-username').getAttribute('placeholder')).toBe(auth.login.username);
  expect(await page.getByTestId('login-password').getAttribute('placeholder')).toBe(auth.login.password);
  expect(await shown(page.locator('.uiot-login__subtitle'))).toBe(auth.login.subtitle);
  expect(await shown(page.locator('.uiot-login__title'))).toBe(systemTitle[lang]);
  expect(await shown(page.getByTestId('login-version'))).toBe(
    fill(common.version, { version: BUILD_VERSION }),
  );
  await expect.poll(() => page.title()).toBe(systemTitle[lang]);
}

async function expectShellIn(page: Page, lang: Lang): Promise<void> {
  const { menu, shell, home } = TEXTS[lang];
  expect(await htmlLang(page)).toBe(lang);
  await expect.poll(() => shown(page.getByTestId('sidebar-item-Home'))).toBe(menu.home);
  expect(await shown(page.locator('.uiot-sidebar__title'))).toBe(systemTitle[lang]);
  expect(await shown(page.getByTestId('breadcrumb'))).toBe(menu.home);
  expect(await shown(page.getByTestId('welcome'))).toBe(fill(shell.navbar.welcome, { name: 'admin' }));
  expect(await shown(page.getByTestId('tags-view-item'))).toBe(menu.home);
  expect(await shown(page.locator('.uiot-home__greeting'))).toBe(fill(home.welcome, { name: 'admin' }));
  await expect.poll(() => page.title()).toBe(`${menu.home} - ${systemTitle[lang]}`);
  expect(await page.getByTestId('sidebar-toggle').getAttribute('aria-label')).toBe(shell.sidebar.collapse);

  const avatar = await openAvatarMenu(page);
  expect(await shown(avatar.getByTestId('avatar-menu-profile'))).toBe(shell.avatar.profile);
  expect(await shown(avatar.getByTestId('avatar-menu-sign-out'))).toBe(shell.avatar.signOut);
  await page.keyboard.press('Escape');
  await avatar.waitFor({ state: 'hidden' });

  await page.getByTestId('tags-view-item').click({ button: 'right' });
  const tagMenu = openMenu(page).filter({ has: page.getByTestId('tag-menu-refresh') });
  await tagMenu.waitFor();
  expect(await tagMenu.locator('[data-testid^="tag-menu-"]').allInnerTexts()).toEqual([
    shell.tags.refresh,
    shell.tags.closeOthers,
    shell.tags.closeAll,
  ]);
  await page.keyboard.press('Escape');
  await tagMenu.waitFor({ state: 'hidden' });
}

describe('language', () => {
  it('the login page re-renders in each language, server messages follow, the choice is remembered', async () => {
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    await page.getByTestId('login-form').waitFor();
    // zh-CN by default, whatever the browser's own language (en-US here).
    await expectLoginIn(page, 'zh-CN');
    expect(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_STORAGE_KEY)).toBeNull();

    for (const lang of LANGUAGES) {
      if (lang !== 'zh-CN') await switchLanguage(page, 'login-language', lang);
      await expectLoginIn(page, lang);
      await screenshot(page, `login-${lang}`);
    }

    await switchLanguage(page, 'login-language', 'en');
    await page.reload();
    await page.getByTestId('login-form').waitFor();
    await expectLoginIn(page, 'en');
    expect(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_STORAGE_KEY)).toBe('en');

    // The server answers in the console's language.
    const failed = await submitLogin(page, 'admin', 'Not-The-Password-1');
    expect(((await failed.json()) as { message: string }).message).toBe(resultMessages.LoginFailed.en);
    await toast(page, resultMessages.LoginFailed.en).waitFor();

    // The shell opens in the language chosen on the login page.
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await waitHomeLoaded(page);
    await expectShellIn(page, 'en');
  });

  it('the shell re-renders in each language and keeps it after a reload and a sign-out', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await waitHomeLoaded(page);

    for (const lang of LANGUAGES) {
      if (lang !== 'zh-CN') await switchLanguage(page, 'lang-switch', lang);
      await expectShellIn(page, lang);
      await waitHomeLoaded(page);
      await screenshot(page, `home-${lang}`);
    }

    await page.reload();
    await waitHomeLoaded(page);
    await expectShellIn(page, 'zh-TW');

    const avatar = await openAvatarMenu(page);
    await avatar.getByTestId('avatar-menu-sign-out').click();
    await page.getByTestId('login-form').waitFor();
    await expectLoginIn(page, 'zh-TW');
  });
});
