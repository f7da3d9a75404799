// The shell's layout (spec §2 Shell, §4 Navigation): the tabs bar (a tab per visited view, the pinned home
// tab, context menu refresh / close / close others / close all, closing the active tab goes to the last
// remaining tab or home) and the sidebar (collapse remembered after a reload; collapsed by default below
// 992 px, where it opens as a drawer over the page).
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  location,
  openAvatarMenu,
  openMenu,
  screenshot,
  shown,
  shownMenu,
  signIn,
  TEXTS,
  useConsoleSuite,
  waitHomeLoaded,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];

const { app, browser } = useConsoleSuite();

const tab = (page: Page, path: string): Locator =>
  page.locator(`[data-testid="tags-view-item"][data-path="${path}"]`);

const tabPaths = (page: Page): Promise<(string | null)[]> =>
  page
    .getByTestId('tags-view-item')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));

const activeTab = (page: Page): Promise<string | null> =>
  page.locator('[data-testid="tags-view-item"][data-active="true"]').getAttribute('data-path');

/** Right-clicks a tab and picks a command of its context menu. */
async function tabCommand(page: Page, path: string, command: string): Promise<void> {
  await tab(page, path).click({ button: 'right' });
  const menu = await shownMenu(page, 'tag-menu-refresh');
  await menu.getByTestId(`tag-menu-${command}`).click();
  await menu.waitFor({ state: 'hidden' });
}

async function openProfile(page: Page): Promise<void> {
  const menu = await openAvatarMenu(page);
  await menu.getByTestId('avatar-menu-profile').click();
  await page.waitForURL('**/profile');
  await page.getByTestId('profile-details').waitFor();
  await expect.poll(() => activeTab(page)).toBe('/profile');
}

describe('tabs bar', () => {
  it('opens a tab per page and runs refresh, close, close others and close all', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/home');
    expect(await tabPaths(page)).toEqual(['/home']);

    await openProfile(page);
    expect(await tabPaths(page)).toEqual(['/home', '/profile']);
    expect(await shown(tab(page, '/profile'))).toBe(zh.menu.profile);

    // The pinned tab's menu has no 'close'; a normal tab's has all four.
    await tab(page, '/home').click({ button: 'right' });
    let menu = openMenu(page).filter({ has: page.getByTestId('tag-menu-refresh') });
    await menu.waitFor();
    expect(await menu.locator('[data-testid^="tag-menu-"]').allInnerTexts()).toEqual([
      zh.shell.tags.refresh,
      zh.shell.tags.closeOthers,
      zh.shell.tags.closeAll,
    ]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await tab(page, '/profile').click({ button: 'right' });
    menu = openMenu(page).filter({ has: page.getByTestId('tag-menu-close') });
    await menu.waitFor();
    expect(await menu.locator('[data-testid^="tag-menu-"]').allInnerTexts()).toEqual([
      zh.shell.tags.refresh,
      zh.shell.tags.close,
      zh.shell.tags.closeOthers,
      zh.shell.tags.closeAll,
    ]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // Refresh mounts the page afresh at the same address, keeping the tabs.
    const before = await page.getByTestId('profile-details').elementHandle();
    await tabCommand(page, '/profile', 'refresh');
    await expect.poll(() => before?.evaluate((element) => element.isConnected)).toBe(false);
    await page.getByTestId('profile-details').waitFor();
    expect(location(page)).toBe('/profile');
    expect(await tabPaths(page)).toEqual(['/home', '/profile']);
    expect(await activeTab(page)).toBe('/profile');

    // Close others from the home tab: only home is left, and it becomes the page.
    await tabCommand(page, '/home', 'close-others');
    await page.waitForURL('**/home');
    expect(await tabPaths(page)).toEqual(['/home']);

    // Close others from a tab that is not active: it is kept (with the pinned one) and opened.
    await openProfile(page);
    await tab(page, '/home').click();
    await page.waitForURL('**/home');
    await tabCommand(page, '/profile', 'close-others');
    await page.waitForURL('**/profile');
    expect(await tabPaths(page)).toEqual(['/home', '/profile']);

    // Close all: the pinned home tab stays and opens.
    await tabCommand(page, '/profile', 'close-all');
    await page.waitForURL('**/home');
    expect(await tabPaths(page)).toEqual(['/home']);
    expect(await activeTab(page)).toBe('/home');
  });

  it('closing the active tab goes to the last remaining tab; closing another stays', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/home');

    // Context menu 'close' on the active tab: on to the last remaining tab (home).
    await openProfile(page);
    await tabCommand(page, '/profile', 'close');
    await page.waitForURL('**/home');
    expect(await tabPaths(page)).toEqual(['/home']);

    // The × of the active tab does the same.
    await openProfile(page);
    await tab(page, '/profile').getByTestId('tags-view-close').click();
    await page.waitForURL('**/home');
    expect(await tabPaths(page)).toEqual(['/home']);

    // Closing a tab that is not active leaves the page where it is.
    await openProfile(page);
    await tab(page, '/home').click();
    await page.waitForURL('**/home');
    await page.getByTestId('page-content').locator('.uiot-home').waitFor();
    await tab(page, '/profile').getByTestId('tags-view-close').click();
    await expect.poll(() => tabPaths(page)).toEqual(['/home']);
    expect(location(page)).toBe('/home');

    // A tab reopens the page with its query.
    await page.goto('/profile?section=contact');
    await page.getByTestId('profile-details').waitFor();
    await tab(page, '/home').click();
    await page.waitForURL('**/home');
    await tab(page, '/profile').click();
    await page.waitForURL('**/profile?section=contact');
  });
});

describe('sidebar', () => {
  it('collapsing is remembered after a reload', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const sidebar = page.getByTestId('sidebar');
    const width = () => sidebar.evaluate((element) => element.getBoundingClientRect().width);
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    expect(await width()).toBe(210);
    expect(await page.getByTestId('sidebar-toggle').getAttribute('aria-label')).toBe(
      zh.shell.sidebar.collapse,
    );

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => sidebar.getAttribute('data-collapsed')).toBe('true');
    await expect.poll(width).toBeLessThan(100);
    expect(await page.getByTestId('sidebar-toggle').getAttribute('aria-label')).toBe(zh.shell.sidebar.expand);

    await page.reload();
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true');
    await expect.poll(width).toBeLessThan(100);

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => sidebar.getAttribute('data-collapsed')).toBe('false');
    await page.reload();
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    await expect.poll(width).toBe(210);
  });

  it('below 992 px the sidebar starts collapsed and opens as a drawer', async () => {
    const { page } = await browser.open(app.url, { viewport: { width: 900, height: 700 } });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/home');
    const drawerMenu = page.locator('.uiot-sidebar--drawer').getByTestId('sidebar-menu');
    const toggle = page.getByTestId('sidebar-toggle');
    await toggle.waitFor();
    // No fixed column and no open drawer: the page has the whole width.
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await drawerMenu.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-label')).toBe(zh.shell.sidebar.expand);
    expect(await page.getByTestId('breadcrumb').count()).toBe(0);
    const content = await page.getByTestId('page-content').boundingBox();
    expect(content?.x).toBeLessThan(20);

    await waitHomeLoaded(page);
    await toggle.click();
    await drawerMenu.waitFor();
    await screenshot(page, 'home-zh-CN-narrow-drawer');
    await drawerMenu.getByTestId('sidebar-item-Home').click();
    await drawerMenu.waitFor({ state: 'hidden' });

    // Still collapsed after a reload, and the desktop setting is left alone.
    await page.reload();
    await toggle.waitFor();
    expect(await drawerMenu.isVisible()).toBe(false);

    // Back above the breakpoint the fixed sidebar returns, expanded as remembered.
    await page.setViewportSize({ width: 1280, height: 800 });
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    await page.setViewportSize({ width: 991, height: 800 });
    await sidebar.waitFor({ state: 'detached' });
  });
});
