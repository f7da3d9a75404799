// The control-room board (issue 16, docs/alarms.md): the administrator makes a display link for the
// station on /sys/alarm-board and is shown its address once; a fresh browser, never signed in, opens it:
// the code leaves the address, the board shows no open alarms, then the alarm a lock raises appears live;
// a reload keeps the board. The link's code does not open a second board. Revoked, the board says so at
// once. Photographed in zh-CN and en.
import { ALARM_BOARD_PATH } from '@uiot/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enAlarms from '../apps/web/src/locales/en/alarms.json' with { type: 'json' };
import zhAlarms from '../apps/web/src/locales/zh-CN/alarms.json' with { type: 'json' };
import zhCommon from '../apps/web/src/locales/zh-CN/common.json' with { type: 'json' };
import { DOOR_OPEN, saveLockRule, useLockSuite } from './support/alarm-locks.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  chooseOption,
  codeText,
  screenshot,
  shown,
  signIn,
  switchLanguage,
  tableRow,
  toast,
} from './support/ui.ts';

const BOARD_NAME = '控制室大屏';
const DOOR_TEXT = '出口门未关';
const LOCK = { name: 'E2E 金钟站A出口门锁', code: 'E2E-BRD-0001' };

const { app, browser, lock } = await useLockSuite();

const liveStatus = (page: Page) => page.getByTestId('board-live').getAttribute('data-status');

describe('control-room board', () => {
  it('opens live without signing in from the link an administrator made, and ends when revoked', async () => {
    // A lock whose door, open, raises a critical alarm.
    const { admin: adminCalls, registered, connection: doorLock } = await lock('E2E-BRD', LOCK);
    await saveLockRule(
      adminCalls,
      registered.typeId,
      { name: 'E2E board door', formatMsg: `{device} ${DOOR_TEXT}`, severity: 'critical' },
      DOOR_OPEN,
    );

    // The administrator makes the link: its address is shown once.
    const { page: admin } = await browser.open(app.url, { viewport: { width: 1440, height: 900 } });
    await signIn(admin, 'admin', ADMIN_PASSWORD);
    await admin.goto('/sys/alarm-board');
    await admin.getByTestId('alarmBoardLinks-page').waitFor();
    await admin.getByTestId('alarmBoardLinks-create').click();
    await admin.getByTestId('alarmBoardLinks-dialog').waitFor();
    await admin.getByTestId('alarmBoard-name').fill(BOARD_NAME);
    await chooseOption(admin, 'alarmBoard-stationId', 'UIOT');
    await admin.getByTestId('alarmBoardLinks-dialog-submit').click();
    await admin.getByTestId('alarmBoard-address').waitFor();
    const address = await codeText(admin.getByTestId('alarmBoard-address-password'));
    const url = new URL(address);
    expect(url.pathname).toBe(ALARM_BOARD_PATH);
    // The code travels in the fragment: the browser never sends it to the server.
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('code')?.length).toBeGreaterThanOrEqual(32);
    await screenshot(admin, 'alarm-board-address-zh-CN');
    await admin.getByTestId('alarmBoard-address-close').click();
    const row = tableRow(admin, 'alarmBoardLinks-table', BOARD_NAME);
    await row.waitFor();
    expect(await row.getByTestId('alarmBoard-state').getAttribute('data-state')).toBe('active');

    // A wall screen never signed in opens it: the code leaves the address, nothing is open yet.
    const { page: board } = await browser.open(app.url, { viewport: { width: 1600, height: 900 } });
    await board.goto(url.pathname + url.hash);
    await board.getByTestId('board-empty').waitFor();
    expect(new URL(board.url()).hash).toBe('');
    expect(await shown(board.getByTestId('board-empty'))).toContain(zhAlarms.board.empty);
    await expect.poll(() => liveStatus(board), { timeout: 20_000 }).toBe('live');
    await screenshot(board, 'alarm-board-empty-zh-CN');

    // The lock's door opens: the alarm appears on the board by itself.
    await doorLock.report('e2e-brd-1', { door: 'open', battery: 90 });
    const alarm = board.getByTestId('board-row').filter({ hasText: DOOR_TEXT });
    await alarm.waitFor({ timeout: 20_000 });
    expect(await shown(alarm)).toContain(LOCK.name);
    expect(await shown(alarm)).toContain(zhAlarms.severity.critical);
    await screenshot(board, 'alarm-board-live-zh-CN');

    // A reload keeps the board (its display session), the code is not needed again.
    await board.reload();
    await alarm.waitFor();
    await switchLanguage(board, 'lang-switch', 'en');
    await expect.poll(() => shown(board.getByTestId('board-table'))).toContain(enAlarms.severity.critical);
    await expect.poll(() => liveStatus(board), { timeout: 20_000 }).toBe('live');
    await screenshot(board, 'alarm-board-live-en');

    // The same address does not open a second board.
    const { page: second } = await browser.open(app.url);
    await second.goto(url.pathname + url.hash);
    const refused = second.getByTestId('board-failure');
    await refused.waitFor();
    expect(await refused.getAttribute('data-failure')).toBe('invalid');
    expect(await shown(refused)).toContain(zhAlarms.board.failure.invalid.title);

    // The link is listed with its last use; revoked, the open board says so at once.
    await admin.getByTestId('alarmBoardLinks-refresh').click();
    await expect.poll(() => shown(row)).toMatch(/127\.0\.0\.1/);
    await screenshot(admin, 'alarm-board-links-zh-CN');
    await row.getByTestId('alarmBoardLinks-row-revoke').click();
    await admin.getByTestId('alarmBoardLinks-confirm-ok').click();
    await toast(admin, zhCommon.outcome.revoke.success).waitFor();
    await expect.poll(() => row.getByTestId('alarmBoard-state').getAttribute('data-state')).toBe('revoked');
    const ended = board.getByTestId('board-failure');
    await ended.waitFor({ timeout: 20_000 });
    expect(await ended.getAttribute('data-failure')).toBe('revoked');
    expect(await shown(ended)).toContain(enAlarms.board.failure.revoked.title);
    await screenshot(board, 'alarm-board-revoked-en');
    await board.reload();
    await board.getByTestId('board-failure').waitFor();
    expect(await board.getByTestId('board-failure').getAttribute('data-failure')).toBe('missing');

    await switchLanguage(admin, 'lang-switch', 'en');
    await expect.poll(() => shown(row)).toContain(enAlarms.boardLinks.state.revoked);
    await screenshot(admin, 'alarm-board-links-en');
  });
});
