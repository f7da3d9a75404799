// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type ClientRow, translateValidation } from '@uiot/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import {
  answeringServer,
  type FakeCall,
  postsOf,
  signInWith,
  useFakeServer,
} from '../../lib/test/fake-server.ts';
import { chooseOption, renderPage as renderWith } from '../../lib/test/render-page.tsx';
import { recordToasts } from '../../lib/test/toasts.ts';
import { ClientsPage } from './clients-page.tsx';

/**
 * The page against a fake server: the list and its search, what the review dialog refuses before calling
 * anything (the shared schema: a rejection needs a description), what it sends, and who sees the buttons.
 */

const calls: FakeCall[] = [];
const toasts = recordToasts();

function client(
  id: string,
  name: string,
  state: ClientRow['state'],
  more: Partial<ClientRow> = {},
): ClientRow {
  return {
    id,
    clientId: `android-${id}`,
    clientType: 'ANDROID',
    name,
    telNo: null,
    registCode: `CODE-${id}`,
    state,
    regist: state === 'passed',
    requestTime: '2026-01-01T01:00:00.000Z',
    registTime: null,
    reviewerName: null,
    resultDesc: null,
    staffId: null,
    staffName: null,
    sendTime: null,
    ...more,
  };
}

const ROWS: ClientRow[] = [
  client('c1', 'Tablet at Admiralty', 'pending'),
  client('c2', 'PC in the depot', 'passed', {
    clientType: 'PC',
    reviewerName: 'admin',
    registTime: '2026-01-02T01:00:00.000Z',
    staffName: 'Chan Tai Man',
    sendTime: '2026-01-03T01:00:00.000Z',
  }),
  client('c3', 'Old phone', 'rejected', { clientType: 'IOS', resultDesc: 'Unknown device' }),
];

const fakeFetch = answeringServer({ '/client/queryPage': { rows: ROWS, total: ROWS.length } }, calls);

const renderPage = () => renderWith(<ClientsPage />);

const tableRows = () =>
  [...screen.getByTestId('clients-table').querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
const posts = () => postsOf(calls);
const queries = () => calls.filter((call) => call.path === '/client/queryPage').map((call) => call.query);

/** Clicks the element `testId` of the page, or of one row. */
async function click(testId: string, row?: HTMLElement) {
  const target = row ? within(row).getByTestId(testId) : screen.getByTestId(testId);
  await act(async () => {
    fireEvent.click(target);
  });
}

async function listed(): Promise<HTMLElement[]> {
  renderPage();
  await waitFor(() => expect(tableRows()).toHaveLength(3));
  return tableRows();
}

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls.length = 0;
  await i18n.changeLanguage('en');
  signInWith(['client.read', 'client.review']);
});

afterEach(() => {
  cleanup();
});

// A first render of antd in jsdom is slow on a busy machine.
describe('ClientsPage', { timeout: 30_000 }, () => {
  it('lists the clients with their type, state and who reviewed them', async () => {
    const [pending, passed, rejected] = (await listed()) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(pending).getByText('Tablet at Admiralty')).toBeTruthy();
    expect(within(pending).getByText('Android')).toBeTruthy();
    expect(within(pending).getByTestId('clients-state-pending').textContent).toBe('Awaiting review');
    expect(within(passed).getByText('admin')).toBeTruthy();
    expect(within(passed).getByText('Chan Tai Man')).toBeTruthy();
    expect(within(rejected).getByText('Unknown device')).toBeTruthy();
    expect(within(rejected).getByTestId('clients-state-rejected').textContent).toBe('Rejected');
  });

  it('searches by keyword and state', async () => {
    await listed();
    fireEvent.change(screen.getByTestId('clients-search-keyword'), { target: { value: 'tablet' } });
    await chooseOption('clients-search-state', 'Awaiting review');
    await click('clients-search-submit');
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ keyword: 'tablet', state: 'pending' }));
  });

  it('offers each decision not yet taken: pass and reject while pending', async () => {
    const [pending, passed, rejected] = (await listed()) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(pending).getByTestId('clients-row-pass')).toBeTruthy();
    expect(within(pending).getByTestId('clients-row-reject')).toBeTruthy();
    expect(within(passed).queryByTestId('clients-row-pass')).toBeNull();
    expect(within(passed).getByTestId('clients-row-reject')).toBeTruthy();
    expect(within(rejected).getByTestId('clients-row-pass')).toBeTruthy();
    expect(within(rejected).queryByTestId('clients-row-reject')).toBeNull();
    expect(screen.getAllByTestId('clients-row-delete')).toHaveLength(3);
  });

  it('needs a description to reject, sends nothing without one, then sends it', async () => {
    const [pending] = (await listed()) as [HTMLElement];
    await click('clients-row-reject', pending);
    const dialog = await screen.findByTestId('clients-review-dialog');
    expect(within(dialog).getByTestId('clients-review-code').textContent).toBe('CODE-c1');
    fireEvent.change(screen.getByTestId('clientReview-resultDesc'), { target: { value: '   ' } });
    await click('clients-review-dialog-submit');
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.required', 'en'))).toBeTruthy(),
    );
    expect(posts()).toEqual([]);

    fireEvent.change(screen.getByTestId('clientReview-resultDesc'), {
      target: { value: 'Not one of ours' },
    });
    await click('clients-review-dialog-submit');
    await waitFor(() =>
      expect(posts()).toEqual([
        {
          method: 'POST',
          path: '/client/review',
          body: { id: 'c1', pass: false, resultDesc: 'Not one of ours' },
        },
      ]),
    );
    await waitFor(() => expect(toasts).toEqual(['success: Audited successfully']));
  });

  it('passes with { id, pass: true } and no description, and refreshes the list', async () => {
    const [pending] = (await listed()) as [HTMLElement];
    const before = queries().length;
    await click('clients-row-pass', pending);
    await screen.findByTestId('clients-review-dialog');
    await click('clients-review-dialog-submit');
    await waitFor(() =>
      expect(posts()).toEqual([{ method: 'POST', path: '/client/review', body: { id: 'c1', pass: true } }]),
    );
    await waitFor(() => expect(queries().length).toBeGreaterThan(before));
  });

  it('deletes a client after confirmation', async () => {
    const [, passed] = (await listed()) as [HTMLElement, HTMLElement];
    await click('clients-row-delete', passed);
    expect(calls.some((call) => call.path === '/client/del')).toBe(false);
    await click('clients-confirm-ok');
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/client/del').map((call) => call.query)).toEqual([
        { id: 'c2' },
      ]),
    );
  });

  it('shows no review or delete buttons without client.review', async () => {
    signInWith(['client.read']);
    await listed();
    expect(screen.queryAllByTestId('clients-row-pass')).toEqual([]);
    expect(screen.queryAllByTestId('clients-row-reject')).toEqual([]);
    expect(screen.queryAllByTestId('clients-row-delete')).toEqual([]);
  });

  it('shows the empty state in Chinese when nothing has registered', async () => {
    calls.length = 0;
    useFakeServer(answeringServer({ '/client/queryPage': { rows: [], total: 0 } }, calls));
    await i18n.changeLanguage('zh-CN');
    try {
      renderPage();
      await waitFor(() => expect(queries().length).toBeGreaterThan(0));
      const table = await screen.findByTestId('clients-table');
      await waitFor(() => expect(table.querySelector('.ant-empty')).toBeTruthy());
      expect(tableRows()).toHaveLength(0);
      expect(within(table).getAllByText('客户端标识').length).toBeGreaterThan(0);
    } finally {
      useFakeServer(fakeFetch);
    }
  });
});
