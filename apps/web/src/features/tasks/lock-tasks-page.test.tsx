// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type LockTaskAbilities,
  type LockTaskRow,
  ResultCode,
  translateResult,
  translateValidation,
} from '@uiot/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFeedbackSink } from '../../lib/feedback/feedback.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import {
  answeringServer,
  type FakeCall,
  postsOf,
  signInWith,
  useFakeServer,
} from '../../lib/test/fake-server.ts';
import { renderPage as renderWith } from '../../lib/test/render-page.tsx';
import { LockTasksPage } from './lock-tasks-page.tsx';
import { NO_ABILITIES, taskRow } from './test-rows.ts';

/**
 * The page against a fake server: what its dialog refuses before calling anything (the shared schema's
 * messages, translated), which row actions each row offers (the server's abilities and the user's keys),
 * and what a rejection sends.
 */

const calls: FakeCall[] = [];
/** The toasts shown, as `kind: text`. */
let toasts: string[] = [];
let uninstallSink = () => {};

function task(id: string, name: string, abilities: Partial<LockTaskAbilities>): LockTaskRow {
  return taskRow(id, name, { abilities: { ...NO_ABILITIES, ...abilities } });
}

// The first may be audited by the user; the second is the user's own (the server says no audit).
const TRACK_WORK = task('t1', 'Track work', { audit: true, forceEnd: false });
const ROWS: LockTaskRow[] = [
  // Its key was lost when the task was last downloaded: the item says why it was left out.
  { ...TRACK_WORK, items: TRACK_WORK.items.map((item) => ({ ...item, downloadRefusal: 'keyUnusable' })) },
  task('t2', 'My own task', { update: true, cancel: true }),
];

const ANSWERS: Record<string, unknown> = {
  '/lockTask/queryPage': { rows: ROWS, total: ROWS.length },
  '/staff/getAll': [{ id: 's1', name: 'Chan Tai Man' }],
  '/department/getTree': [],
  '/device/queryPage': { rows: [], total: 0 },
};

const fakeFetch = answeringServer(ANSWERS, calls);

const renderPage = () => renderWith(<LockTasksPage />);

const tableRows = () =>
  [...screen.getByTestId('lockTasks-table').querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
const posts = () => postsOf(calls);
const queryPages = () => calls.filter((call) => call.path === '/lockTask/queryPage').length;

async function click(testId: string) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
}

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls.length = 0;
  toasts = [];
  uninstallSink = installFeedbackSink({
    toast: (kind, text) => toasts.push(`${kind}: ${text}`),
    notify: () => {},
  });
  await i18n.changeLanguage('en');
  signInWith([
    'lockTask.read',
    'lockTask.create',
    'lockTask.update',
    'lockTask.delete',
    'lockTask.audit',
    'lockTask.forceEnd',
  ]);
});

afterEach(() => {
  cleanup();
  uninstallSink();
});

// A first render of antd in jsdom is slow on a busy machine.
describe('LockTasksPage', { timeout: 30_000 }, () => {
  it('shows the translated state and audit flag, the operators and the devices', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [first] = tableRows() as [HTMLElement];
    expect(within(first).getAllByText('Awaiting audit')).toHaveLength(2);
    expect(within(first).getByText('Chan Tai Man')).toBeTruthy();
    expect(within(first).getByText('Gate 1')).toBeTruthy();
  });

  it('refuses a task without operators, with the translated message', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    await click('lockTasks-create');
    const dialog = await screen.findByTestId('lockTasks-dialog');
    fireEvent.change(screen.getByTestId('lockTask-name'), { target: { value: 'Night work' } });
    await click('lockTasks-dialog-submit');
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.taskOperators', 'en'))).toBeTruthy(),
    );
    expect(posts()).toEqual([]);
  });

  it('refuses a task left without devices, and sends one for all devices without items', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [, own] = tableRows() as [HTMLElement, HTMLElement];
    await act(async () => {
      fireEvent.click(within(own).getByTestId('lockTasks-row-edit'));
    });
    const dialog = await screen.findByTestId('lockTasks-dialog');
    const devices = screen.getByTestId('lockTask-items').closest('.ant-select') as HTMLElement;
    // The chosen devices are cleared (the responsive tags of jsdom show no remove icons).
    await act(async () => {
      const clear = devices.querySelector('.ant-select-clear') as HTMLElement;
      fireEvent.mouseDown(clear);
      fireEvent.click(clear);
    });
    await click('lockTasks-dialog-submit');
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.taskItems', 'en'))).toBeTruthy(),
    );
    expect(posts()).toEqual([]);

    // All devices instead: no items are sent.
    fireEvent.click(screen.getByTestId('lockTask-allDevice'));
    await click('lockTasks-dialog-submit');
    await waitFor(() =>
      expect(posts()).toEqual([
        {
          method: 'POST',
          path: '/lockTask/update',
          body: {
            name: 'My own task',
            startTime: '2030-01-01T00:00:00.000Z',
            endTime: '2030-01-02T00:00:00.000Z',
            operatorIds: ['s1'],
            operateDeptId: null,
            auditDeptId: null,
            auditorId: null,
            allDevice: true,
            items: [],
            id: 't2',
          },
        },
      ]),
    );
    await waitFor(() => expect(toasts).toEqual(['success: Updated successfully']));
  });

  it('sends an edited task back with its stored items and their keys', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [, own] = tableRows() as [HTMLElement, HTMLElement];
    await act(async () => {
      fireEvent.click(within(own).getByTestId('lockTasks-row-edit'));
    });
    await screen.findByTestId('lockTasks-dialog');
    await click('lockTasks-dialog-submit');
    await waitFor(() =>
      expect(posts().map((call) => (call.body as { items: unknown }).items)).toEqual([
        [{ deviceId: 'd1', keyId: 'k1' }],
      ]),
    );
  });

  it('offers each row only the actions its abilities allow, whatever keys the user holds', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [audited, own] = tableRows() as [HTMLElement, HTMLElement];
    expect(within(audited).getByTestId('lockTasks-row-pass')).toBeTruthy();
    expect(within(audited).getByTestId('lockTasks-row-reject')).toBeTruthy();
    expect(within(audited).queryByTestId('lockTasks-row-edit')).toBeNull();
    expect(within(audited).queryByTestId('lockTasks-row-delete')).toBeNull();
    expect(within(own).queryByTestId('lockTasks-row-pass')).toBeNull();
    expect(within(own).queryByTestId('lockTasks-row-reject')).toBeNull();
    expect(within(own).getByTestId('lockTasks-row-edit')).toBeTruthy();
    expect(within(own).queryByTestId('lockTasks-row-submit')).toBeNull();
  });

  it('shows no audit to a user without lockTask.audit, even on a row the server would let audit', async () => {
    signInWith(['lockTask.read', 'lockTask.update']);
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    expect(screen.queryAllByTestId('lockTasks-row-pass')).toEqual([]);
    expect(screen.queryAllByTestId('lockTasks-row-reject')).toEqual([]);
    expect(screen.queryByTestId('lockTasks-create')).toBeNull();
  });

  it('asks the reason of a rejection, needs one, sends { id, reason } and refreshes the list', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const before = queryPages();
    const [audited] = tableRows() as [HTMLElement];
    await act(async () => {
      fireEvent.click(within(audited).getByTestId('lockTasks-row-reject'));
    });
    const dialog = await screen.findByTestId('lockTasks-reason-dialog');
    await click('lockTasks-reason-dialog-submit');
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.required', 'en'))).toBeTruthy(),
    );
    expect(posts()).toEqual([]);

    fireEvent.change(screen.getByTestId('lockTask-reason-reason'), { target: { value: 'Wrong station' } });
    await click('lockTasks-reason-dialog-submit');
    await waitFor(() =>
      expect(posts()).toEqual([
        { method: 'POST', path: '/lockTask/reject', body: { id: 't1', reason: 'Wrong station' } },
      ]),
    );
    await waitFor(() => expect(queryPages()).toBeGreaterThan(before));
    await waitFor(() => expect(toasts).toEqual(['success: Audited successfully']));
  });

  it('passes after confirmation, with the generic audit success', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [audited] = tableRows() as [HTMLElement];
    await act(async () => {
      fireEvent.click(within(audited).getByTestId('lockTasks-row-pass'));
    });
    expect(calls.some((call) => call.path === '/lockTask/pass')).toBe(false);
    await click('lockTasks-confirm-ok');
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/lockTask/pass').map((call) => call.query)).toEqual([
        { id: 't1' },
      ]),
    );
    await waitFor(() => expect(toasts).toEqual(['success: Audited successfully']));
  });

  it('shows the operation items with their keys in the detail', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [audited] = tableRows() as [HTMLElement];
    await act(async () => {
      fireEvent.click(within(audited).getByTestId('lockTasks-row-detail'));
    });
    const items = await screen.findByTestId('lockTasks-detail-items');
    expect(within(items).getByText('Gate 1')).toBeTruthy();
    expect(within(items).getByText('Key 7')).toBeTruthy();
    expect(within(items).getByTestId('lockTasks-detail-downloadRefusal').textContent).toBe(
      translateResult(ResultCode.OpenKeyUnusable, 'en'),
    );
  });
});
