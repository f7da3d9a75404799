// Shared steps of the browser tests: one browser per file, a fresh context per test, signing in, the
// console's texts per language (read from the console's own locale files) and screenshots.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX, api, type Endpoint, type Lang, TOKEN_STORAGE_KEY } from '@uiot/contracts';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import enAuth from '../../apps/web/src/locales/en/auth.json' with { type: 'json' };
import enCommon from '../../apps/web/src/locales/en/common.json' with { type: 'json' };
import enErrors from '../../apps/web/src/locales/en/errors.json' with { type: 'json' };
import enHome from '../../apps/web/src/locales/en/home.json' with { type: 'json' };
import enMenu from '../../apps/web/src/locales/en/menu.json' with { type: 'json' };
import enShell from '../../apps/web/src/locales/en/shell.json' with { type: 'json' };
import zhCNAuth from '../../apps/web/src/locales/zh-CN/auth.json' with { type: 'json' };
import zhCNCommon from '../../apps/web/src/locales/zh-CN/common.json' with { type: 'json' };
import zhCNErrors from '../../apps/web/src/locales/zh-CN/errors.json' with { type: 'json' };
import zhCNHome from '../../apps/web/src/locales/zh-CN/home.json' with { type: 'json' };
import zhCNMenu from '../../apps/web/src/locales/zh-CN/menu.json' with { type: 'json' };
import zhCNShell from '../../apps/web/src/locales/zh-CN/shell.json' with { type: 'json' };
import zhTWAuth from '../../apps/web/src/locales/zh-TW/auth.json' with { type: 'json' };
import zhTWCommon from '../../apps/web/src/locales/zh-TW/common.json' with { type: 'json' };
import zhTWErrors from '../../apps/web/src/locales/zh-TW/errors.json' with { type: 'json' };
import zhTWHome from '../../apps/web/src/locales/zh-TW/home.json' with { type: 'json' };
import zhTWMenu from '../../apps/web/src/locales/zh-TW/menu.json' with { type: 'json' };
import zhTWShell from '../../apps/web/src/locales/zh-TW/shell.json' with { type: 'json' };
import {
  checkConsoleAddress,
  launchBrowser,
  type PageActivity,
  watchPageActivity,
  watchPageErrors,
} from './browser.ts';
import { type RunningConsole, startConsole } from './console.ts';

export { TOKEN_STORAGE_KEY };

/** The console's texts of one language, as the console itself has them. */
export const TEXTS = {
  'zh-CN': {
    auth: zhCNAuth,
    common: zhCNCommon,
    errors: zhCNErrors,
    home: zhCNHome,
    menu: zhCNMenu,
    shell: zhCNShell,
  },
  en: { auth: enAuth, common: enCommon, errors: enErrors, home: enHome, menu: enMenu, shell: enShell },
  'zh-TW': {
    auth: zhTWAuth,
    common: zhTWCommon,
    errors: zhTWErrors,
    home: zhTWHome,
    menu: zhTWMenu,
    shell: zhTWShell,
  },
} satisfies Record<Lang, unknown>;

/** Fills `{{name}}` parameters of an i18next text. */
export function fill(text: string, params: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => params[key] ?? '');
}

/** antd puts a space between the two characters of a two-character CJK button label ("登 录"). */
export function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

const SCREENSHOT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../.test-artifacts/screenshots',
);

/**
 * Waits until every running (finite) animation of the page has finished: a menu or drop-down that is still
 * zooming in moves under the pointer between Playwright's stability check and its click on a busy machine,
 * so the click lands beside the item.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

const FAILURE_DIR = path.resolve(path.dirname(SCREENSHOT_DIR), 'failures');

/**
 * Reports what a page of a failed test showed and did last: its address, its last requests (a pending one
 * with how long it has waited) and console messages on stderr, and a screenshot in
 * `.test-artifacts/failures/`. The report never fails the test a second time.
 */
async function reportFailedTab(tab: Tab, test: TestContext['task'], index: number): Promise<void> {
  const testName = test.name;
  // The file's name and the test's id keep two tests' screenshots apart.
  const file = path.basename(test.file.name).replace(/\.e2e\.test\.ts$/, '');
  const name = `${file}-${testName.replace(/[^\w-]+/g, '-').slice(0, 60)}-${test.id}-${index}`;
  let shot = '';
  try {
    mkdirSync(FAILURE_DIR, { recursive: true });
    shot = path.join(FAILURE_DIR, `${name}.png`);
    await tab.page.screenshot({ path: shot, timeout: 5_000 });
  } catch (error) {
    shot = `none (${(error as Error).message.split('\n')[0]})`;
  }
  console.error(
    [
      `The page of "${testName}" (tab ${index}) at ${tab.page.url()}; screenshot: ${shot}`,
      ...tab.activity.lines().map((line) => `  ${line}`),
    ].join('\n'),
  );
}

/** Writes a screenshot of the whole page to `.test-artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // No focus ring or caret left over from the steps before, and no opening or closing half-way.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await animationsDone(page);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  return file;
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page: each test ends with none. */
  errors: Error[];
  /** Its last requests and console messages, reported when the test fails. */
  activity: PageActivity;
}

/**
 * One Chromium per test file, and a fresh context (no storage, no cookies) per test. `open` gives a page
 * on the console; `closeAll` (in `afterEach`) checks that no page threw, then closes the contexts.
 */
export class BrowserSession {
  private browser: Browser | null = null;
  private tabs: Tab[] = [];

  async launch(): Promise<void> {
    this.browser = await launchBrowser();
  }

  async open(
    baseURL: string,
    options: {
      viewport?: { width: number; height: number };
      /** Takes the self-signed certificate of a console started with `tls`. */
      ignoreHTTPSErrors?: boolean;
    } = {},
  ): Promise<Tab> {
    if (!this.browser) throw new Error('launch() first');
    checkConsoleAddress(baseURL);
    const context = await this.browser.newContext({
      baseURL,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      locale: 'en-US',
      ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
    });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    const page = await context.newPage();
    const tab = { context, page, errors: watchPageErrors(page), activity: watchPageActivity(page) };
    this.tabs.push(tab);
    return tab;
  }

  /** Closes every context; after a test that failed (its `context`), first reports what each page showed and did. */
  async closeAll(context?: TestContext): Promise<void> {
    const tabs = this.tabs;
    this.tabs = [];
    const failed = context?.task.result?.state === 'fail' ? context.task : null;
    try {
      if (failed) await Promise.all(tabs.map((tab, index) => reportFailedTab(tab, failed, index)));
    } finally {
      await Promise.all(tabs.map((tab) => tab.context.close()));
    }
    for (const tab of tabs) expect(tab.errors.map((error) => error.message)).toEqual([]);
  }

  async close(): Promise<void> {
    await this.closeAll().catch(() => undefined);
    await this.browser?.close();
    this.browser = null;
  }
}

/** The response of an API call the page is about to make, e.g. `apiResponse(page, api.auth.loginCheck)`. */
export function apiResponse(page: Page, endpoint: Endpoint): Promise<Response> {
  const pathname = pathOf(endpoint);
  return page.waitForResponse((response) => new URL(response.url()).pathname === pathname);
}

/**
 * Clicks `button` (settled: it is often in a confirmation still zooming in) and resolves with the envelope
 * of the call to `endpoint` the click makes.
 */
export async function clickAndAnswer(
  page: Page,
  button: Locator,
  endpoint: Endpoint,
): Promise<{ success: boolean; code: number }> {
  await settled(page, button);
  const response = apiResponse(page, endpoint);
  await button.click();
  return (await (await response).json()) as { success: boolean; code: number };
}

/** The URL path an endpoint is served at. */
export const pathOf = (endpoint: Endpoint): string => `${API_PREFIX}${endpoint.path}`;

/** Fills the login form and submits it; resolves with the sign-in call's response. */
export async function submitLogin(page: Page, name: string, password: string): Promise<Response> {
  await page.getByTestId('login-username').fill(name);
  await page.getByTestId('login-password').fill(password);
  const response = apiResponse(page, api.auth.loginCheck);
  await page.getByTestId('login-submit').click();
  return response;
}

/** Opens the login page, signs in and waits for the shell (at `/home` unless a redirect is pending). */
export async function signIn(page: Page, name: string, password: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/login')) await page.goto('/login');
  await page.getByTestId('login-form').waitFor();
  const response = await submitLogin(page, name, password);
  expect(response.status()).toBe(200);
  await page.getByTestId('page-content').waitFor();
}

/** The path and query the page is at. */
export function location(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** A visible toast with the given text: antd's message in the console, the light one on the login page. */
export function toast(page: Page, text: string): Locator {
  return page.locator('.ant-message-notice, .uiot-toast').filter({ hasText: text });
}

/** The error shown under the form field that holds the element `testId`. */
export function fieldError(page: Page, testId: string): Locator {
  return page
    .locator('.ant-form-item')
    .filter({ has: page.getByTestId(testId) })
    .locator('.ant-form-item-explain-error');
}

/**
 * The items of the dropdown menu that is open now: antd's (which keeps closed ones in the page, hidden), or
 * the login page's light one.
 */
export function openMenu(page: Page): Locator {
  return page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu, .uiot-menu');
}

/** The open menu that holds the item `testId`, once it is shown and done opening (safe to click in). */
export async function shownMenu(page: Page, testId: string): Promise<Locator> {
  const menu = openMenu(page).filter({ has: page.getByTestId(testId) });
  await menu.waitFor();
  await animationsDone(page);
  return menu;
}

/** The drop-down of the select (or tree select) that is open now. */
export function openDropdown(page: Page): Locator {
  return page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
}

/**
 * Clicks `target` once it is shown and the page's animations have ended: an item of a menu, list or
 * confirmation that is still zooming in moves under the pointer, and on a busy machine the click lands
 * beside it.
 */
export async function clickSettled(page: Page, target: Locator): Promise<void> {
  await settled(page, target);
  await target.click();
}

/** Waits until `target` is shown and the page's animations have ended (`clickSettled`). */
async function settled(page: Page, target: Locator): Promise<void> {
  await target.waitFor();
  await animationsDone(page);
}

/** Opens the select (or tree select) `testId` and picks the option titled `label` once the list is open. */
export async function chooseOption(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await clickSettled(page, openDropdown(page).locator(`[title="${label}"]`));
}

/** Opens the avatar menu and waits for it. */
export async function openAvatarMenu(page: Page): Promise<Locator> {
  await page.getByTestId('avatar-menu').click();
  return shownMenu(page, 'avatar-menu-sign-out');
}

/** Picks a language from the switch with test id `trigger` (`login-language` or `lang-switch`). */
export async function switchLanguage(page: Page, trigger: string, lang: Lang): Promise<void> {
  await page.getByTestId(trigger).click();
  const menu = await shownMenu(page, `lang-item-${lang}`);
  await menu.getByTestId(`lang-item-${lang}`).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
  await menu.waitFor({ state: 'hidden' });
}

/** The session token the console keeps in localStorage. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
}

/** Waits until the home page has its figures (no loading skeleton or spinner left) for a stable picture. */
export async function waitHomeLoaded(page: Page): Promise<void> {
  await page.locator('.uiot-home').waitFor();
  await expect
    .poll(() => page.locator('.uiot-home .ant-skeleton, .uiot-home .ant-spin-spinning').count())
    .toBe(0);
}

/** The text of an element as the operator sees it (rendered: hidden parts and measuring copies left out). */
export function shown(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, where the rendered text is the point
  return locator.innerText();
}

/**
 * The hooks of a browser-test file: one server (console) and one browser for the whole file, a fresh
 * browser context per test, every page error failing the test. The returned console is filled in
 * before the first test runs.
 */
export function useConsoleSuite(options?: Parameters<typeof startConsole>[0]): {
  app: RunningConsole;
  browser: BrowserSession;
} {
  const app = {} as RunningConsole;
  const browser = new BrowserSession();
  beforeAll(async () => {
    const [started] = await Promise.all([startConsole(options), browser.launch()]);
    Object.assign(app, started);
  });
  afterEach((context) => browser.closeAll(context));
  afterAll(async () => {
    await browser.close();
    await app.stop?.();
  });
  return { app, browser };
}

/** The row of the CRUD table `table` (its test id) that shows `text`. */
export function tableRow(page: Page, table: string, text: string): Locator {
  return page.getByTestId(table).locator('tr.ant-table-row', { hasText: text });
}

/** The value of a copyable text: its first text node, without the copy button antd puts beside it. */
export function codeText(locator: Locator): Promise<string> {
  return locator.evaluate((element) => (element.querySelector('code')?.firstChild?.textContent ?? '').trim());
}
