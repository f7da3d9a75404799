// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type LockTaskRow,
  type OperationRecordRow,
  ResultCode,
  translateResult,
  translateValidation,
} from '@uiot/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFeedbackSink } from '../../lib/feedback/feedback.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import { consoleEvents } from '../../lib/realtime/realtime-state.ts';
import { answer, type FakeCall, readCall, signInWith, useFakeServer } from '../../lib/test/fake-server.ts';
import { chooseOption, renderPage } from '../../lib/test/render-page.tsx';
import { LockTaskDetail } from './lock-task-detail.tsx';
import { OperationRecordsPage } from './operation-records-page.tsx';
import { operationRow } from './test-rows.ts';

/**
 * The operation records page against a fake server: what a record shows (a refusal with its translated
 * reason), what the search sends, the export's time-range rule, records arriving and moving on through the
 * console event hub without a reload; and a remote open from a lock task's details, sent or refused.
 */

const calls: FakeCall[] = [];
let toasts: string[] = [];
let uninstallSink = () => {};

const record = operationRow;

const SENT = record('r1', {});
const REFUSED = record('r2', {
  staffName: 'Wong',
  result: 'refused',
  refusal: 'notAuthorized',
  commandId: null,
  commandState: null,
  operateTime: '2030-01-01T07:00:00.000Z',
});

let rows: OperationRecordRow[] = [];
/** Whether the fake server refuses a remote opening (code OpenNotAuthorized) instead of sending it. */
let refuseOpening = false;

const fakeFetch: typeof fetch = async (input, init) => {
  const call = readCall(input as RequestInfo | URL, init);
  calls.push(call);
  if (call.path === '/operationRecord/queryPage') return answer({ rows, total: rows.length });
  if (call.path === '/device/remoteOpen') {
    if (!refuseOpening) return answer(SENT);
    return new Response(
      JSON.stringify({
        success: false,
        code: ResultCode.OpenNotAuthorized,
        message: 'refused',
        data: REFUSED,
      }),
      { headers: { 'content-type': 'application/json' } },
    );
  }
  return answer(null);
};

const tableRows = () =>
  [
    ...screen.getByTestId('operationRecords-table').querySelectorAll('tbody tr.ant-table-row'),
  ] as HTMLElement[];
const queryPages = () => calls.filter((call) => call.path === '/operationRecord/queryPage');
const publish = (changes: OperationRecordRow[]) =>
  act(() => consoleEvents.dispatch(JSON.stringify({ kind: 'operation', changes })));

async function click(element: Element) {
  await act(async () => {
    fireEvent.click(element);
  });
}

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls.length = 0;
  toasts = [];
  rows = [SENT, REFUSED];
  refuseOpening = false;
  uninstallSink = installFeedbackSink({
    toast: (kind, text) => toasts.push(`${kind}: ${text}`),
    notify: () => {},
  });
  await i18n.changeLanguage('en');
  signInWith(['operationRecord.read', 'operationRecord.export', 'device.open', 'lockTask.read']);
});

afterEach(() => {
  cleanup();
  uninstallSink();
});

describe('OperationRecordsPage', { timeout: 30_000 }, () => {
  it('shows each record in words, a refusal with the translated reason of its result code', async () => {
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [sent, refused] = tableRows() as [HTMLElement, HTMLElement];
    expect(within(sent).getByText('TW-B-0001')).toBeTruthy();
    expect(within(sent).getByText('Remote')).toBeTruthy();
    expect(within(sent).getByText('Console')).toBeTruthy();
    expect(within(sent).getByTestId('operation-result').dataset.result).toBe('sent');
    expect(within(refused).getByTestId('operation-refusal').textContent).toBe(
      translateResult(ResultCode.OpenNotAuthorized, 'en'),
    );
    expect(within(refused).getByText('Refused')).toBeTruthy();
  });

  it('offers the live photo of a record that has one, fetched from the server when asked', async () => {
    rows = [{ ...SENT, source: 'client', opMethod: 'key', photoFileId: 'f1' }, REFUSED];
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [withPhoto, without] = tableRows() as [HTMLElement, HTMLElement];
    expect(within(without).queryByTestId('operation-photo')).toBeNull();
    await click(within(withPhoto).getByTestId('operation-photo'));
    await waitFor(() =>
      expect(
        calls.filter((call) => call.path === '/operationRecord/photo').map((call) => call.query),
      ).toEqual([{ id: SENT.id }]),
    );
  });

  it('shows the empty state without records', async () => {
    rows = [];
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(queryPages()).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByTestId('operationRecords-table').querySelector('.ant-empty')).toBeTruthy(),
    );
  });

  it('searches by keyword, action, result and source', async () => {
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    fireEvent.change(screen.getByTestId('operationRecords-search-keyword'), {
      target: { value: ' 荃湾 ' },
    });
    await chooseOption('operationRecords-search-action', 'Open');
    await chooseOption('operationRecords-search-result', 'Refused');
    await chooseOption('operationRecords-search-source', 'Console');
    await click(screen.getByTestId('operationRecords-search-submit'));
    await waitFor(() =>
      expect(queryPages().at(-1)?.query).toMatchObject({
        keyword: '荃湾',
        action: 'open',
        result: 'refused',
        source: 'console',
      }),
    );
  });

  it('exports all only for a time range, as the server requires', async () => {
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    await click(screen.getByTestId('operationRecords-export'));
    await click(await screen.findByTestId('operationRecords-export-all'));
    await waitFor(() =>
      expect(screen.getByText(translateValidation('v.timeRangeRequired', 'en'))).toBeTruthy(),
    );
    expect(calls.filter((call) => call.path === '/operationRecord/export')).toEqual([]);
  });

  it('follows the live records: a record that moves on in place, a new one by asking again', async () => {
    renderPage(<OperationRecordsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const asked = queryPages().length;

    await publish([{ ...SENT, result: 'succeeded', commandState: 'Success' }]);
    await waitFor(() =>
      expect(within(tableRows()[0] as HTMLElement).getByTestId('operation-result').dataset.result).toBe(
        'succeeded',
      ),
    );
    expect(queryPages()).toHaveLength(asked);

    const arrived = record('r3', { operateTime: '2030-01-01T09:00:00.000Z', staffName: 'Lee' });
    rows = [arrived, ...rows];
    await publish([arrived]);
    await waitFor(() => expect(tableRows()).toHaveLength(3), { timeout: 5_000 });
    expect(queryPages().length).toBeGreaterThan(asked);
  });
});

describe('remote open from a lock task', { timeout: 30_000 }, () => {
  const task = {
    id: 't1',
    name: 'Track work',
    startTime: '2030-01-01T00:00:00.000Z',
    endTime: '2030-01-02T00:00:00.000Z',
    state: 'Execute',
    authFlag: 'Pass',
    reason: null,
    auditedByName: 'Wong',
    auditedAt: null,
    auditDept: null,
    auditor: null,
    operateDept: null,
    operators: [{ id: 's1', name: 'Chan Tai Man' }],
    allDevice: false,
    items: [
      {
        id: 'i1',
        deviceId: 'd1',
        deviceName: 'Gate 1',
        keyId: null,
        keyName: null,
        toKeyTime: null,
        uploadTime: null,
      },
    ],
    finishFlag: null,
    finishTime: null,
    taskSource: 'console',
    creatorId: 'other',
    creatorName: 'Wong',
    createdAt: '2029-12-01T00:00:00.000Z',
    abilities: { update: false, submit: false, audit: false, cancel: false, forceEnd: false, delete: false },
  } as LockTaskRow;

  async function openRemotely() {
    renderPage(<LockTaskDetail task={task} open onClose={() => {}} />);
    await click(await screen.findByTestId('lockTasks-detail-remoteOpen'));
    // The question names the lock.
    await waitFor(() =>
      expect(screen.getByText('Open lock "Gate 1" remotely?', { exact: false })).toBeTruthy(),
    );
    await click(screen.getByTestId('lockTasks-detail-confirm-ok'));
  }

  it('sends the opening after confirmation and says the command was sent', async () => {
    await openRemotely();
    await waitFor(() => expect(toasts).toEqual(['success: Command sent successfully']));
    expect(calls.filter((call) => call.method === 'POST')).toMatchObject([
      { path: '/device/remoteOpen', body: { deviceId: 'd1' } },
    ]);
  });

  it('shows the translated reason of a refusal as the error', async () => {
    refuseOpening = true;
    await openRemotely();
    await waitFor(() =>
      expect(toasts).toEqual([`error: ${translateResult(ResultCode.OpenNotAuthorized, 'en')}`]),
    );
  });

  it('offers no remote open to a user without device.open, nor on a task that is not executing', async () => {
    signInWith(['lockTask.read']);
    renderPage(<LockTaskDetail task={task} open onClose={() => {}} />);
    await screen.findByTestId('lockTasks-detail');
    expect(screen.queryByTestId('lockTasks-detail-remoteOpen')).toBeNull();
    cleanup();
    signInWith(['lockTask.read', 'device.open']);
    renderPage(<LockTaskDetail task={{ ...task, state: 'Finish' }} open onClose={() => {}} />);
    await screen.findByTestId('lockTasks-detail');
    expect(screen.queryByTestId('lockTasks-detail-remoteOpen')).toBeNull();
  });
});
