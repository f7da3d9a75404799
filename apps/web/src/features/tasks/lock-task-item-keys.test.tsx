// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { KeyRow } from '@uiot/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { session } from '../../lib/auth/session.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import {
  answeringServer,
  type FakeCall,
  postsOf,
  signInWith,
  useFakeServer,
} from '../../lib/test/fake-server.ts';
import { chooseOption, renderPage } from '../../lib/test/render-page.tsx';
import { LockTasksPage } from './lock-tasks-page.tsx';
import { NO_ABILITIES, taskRow } from './test-rows.ts';

/** The key of each operation item in the lock task dialog: chosen per device, sent with the item. */

const calls: FakeCall[] = [];

const key = (id: string, name: string, staffName: string): KeyRow => ({
  id,
  name,
  code: `C-${id}`,
  staffId: 's1',
  staffName,
  holderDisabled: false,
  deptId: null,
  deptName: null,
  desc: null,
  state: 'normal',
  createdAt: '2029-01-01T00:00:00.000Z',
});

const OWN = taskRow('t1', 'Replace the cable of gate 3', {
  state: 'New',
  authFlag: null,
  creatorId: 'me',
  creatorName: 'me',
  abilities: { ...NO_ABILITIES, update: true },
});

beforeAll(() =>
  useFakeServer(
    answeringServer(
      {
        '/lockTask/queryPage': { rows: [OWN], total: 1 },
        '/staff/getAll': [{ id: 's1', name: 'Chan Tai Man' }],
        '/department/getTree': [],
        '/device/queryPage': { rows: [], total: 0 },
        '/key/queryPage': {
          rows: [key('k1', 'Key 7', 'Chan Tai Man'), key('k2', 'Key 9', 'Chan Tai Man')],
          total: 2,
        },
      },
      calls,
    ),
  ),
);

beforeEach(async () => {
  calls.length = 0;
  await i18n.changeLanguage('en');
  signInWith(['lockTask.read', 'lockTask.update']);
  session.set((state) => ({ ...state, flags: { ShowKeyInfo: 'true' } }));
});

afterEach(() => cleanup());

describe('the operation items’ keys', { timeout: 30_000 }, () => {
  it('offers a key chooser per device, and sends the key chosen with its item', async () => {
    renderPage(<LockTasksPage />);
    const row = await screen.findByText('Replace the cable of gate 3');
    await act(async () => {
      fireEvent.click(within(row.closest('tr') as HTMLElement).getByTestId('lockTasks-row-edit'));
    });
    await screen.findByTestId('lockTasks-dialog');
    const keys = await screen.findByTestId('lockTask-itemKeys');
    expect(within(keys).getByText('Gate 1')).toBeTruthy();
    await act(() => chooseOption('lockTask-itemKeys-0', 'Key 9 (Chan Tai Man)'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('lockTasks-dialog-submit'));
    });
    await waitFor(() =>
      expect(postsOf(calls).map((call) => (call.body as { items: unknown }).items)).toEqual([
        [{ deviceId: 'd1', keyId: 'k2' }],
      ]),
    );
  });

  it('shows no key chooser where keys are not used (ShowKeyInfo off)', async () => {
    session.set((state) => ({ ...state, flags: { ShowKeyInfo: 'false' } }));
    renderPage(<LockTasksPage />);
    const row = await screen.findByText('Replace the cable of gate 3');
    await act(async () => {
      fireEvent.click(within(row.closest('tr') as HTMLElement).getByTestId('lockTasks-row-edit'));
    });
    await screen.findByTestId('lockTasks-dialog');
    expect(screen.queryByTestId('lockTask-itemKeys')).toBeNull();
  });
});
