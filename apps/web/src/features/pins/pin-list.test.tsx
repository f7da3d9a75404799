// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type PinForm, type PinRow, ResultCode, translateResult, translateValidation } from '@uiot/contracts';
import { App } from 'antd';
import dayjs from 'dayjs';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consoleClock, instantOf } from '../../lib/console-time.ts';
import { DATE_TIME_FORMAT } from '../../lib/i18n/date-format.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import { answer, type FakeCall, readCall, signInWith, useFakeServer } from '../../lib/test/fake-server.ts';
import { chooseOption } from '../../lib/test/render-page.tsx';
import { recordToasts } from '../../lib/test/toasts.ts';
import { OfflinePinsPage } from './offline-pins-page.tsx';
import { PinList } from './pin-list.tsx';
import { pinRow } from './test-rows.ts';

/**
 * The PIN list against a fake server: how a PIN reads (masked, its state, grant and weekdays), who is offered
 * what, what the generate dialog refuses before calling (the shared schema's messages), the server's field
 * errors and the decision's refusal, and the code shown once and then gone: from the page and from the query
 * cache. The monitor's tab: one lock, preset in the dialogs.
 */

const calls: FakeCall[] = [];
const toasts = recordToasts();
const CODE = '312512106';
const ERASE_CODE = '157082474';

const ONCE = pinRow('p1', { abilities: { revoke: true, showCode: false } });
const WEEKLY = pinRow('p2', {
  type: 'weekly',
  weekdays: [2, 0],
  taskName: null,
  byAuthorization: true,
  useState: 'disabled',
  pendingDeletion: true,
  revokedAt: '2030-01-01T09:00:00.000Z',
  userName: 'Lee Siu Ming',
});
const DURABLE = pinRow('p3', {
  type: 'durable',
  algorithm: 'lorawan',
  storage: 'pending',
  useState: 'expire',
  useCount: 3,
  usageTime: '2030-01-01T08:30:00.000Z',
});

/** A durable PIN its lock took: its generator has not seen its code yet. */
const STORED = pinRow('p4', {
  type: 'durable',
  storage: 'stored',
  abilities: { revoke: true, showCode: true },
});
const STORED_CODE = '804215397';

let rows: PinRow[] = [];
/** How the fake server answers a generation. */
let generation: 'ok' | 'refused' | 'invalid' = 'ok';

const failure = (status: number, code: number, message: string, data: unknown = null) =>
  new Response(JSON.stringify({ success: false, code, message, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const fakeFetch: typeof fetch = async (input, init) => {
  const call = readCall(input as RequestInfo | URL, init);
  calls.push(call);
  switch (call.path) {
    case '/pin/queryPage':
      return answer({ rows, total: rows.length });
    case '/staff/getAll':
      return answer([
        { id: 's1', name: 'Chan Tai Man' },
        { id: 's2', name: 'Lee Siu Ming' },
      ]);
    case '/device/queryPage':
      return answer({ rows: [{ id: 'd1', name: 'Tsuen Wan tunnel door' }], total: 1 });
    case '/pin/generate': {
      const body = call.body as PinForm;
      if (generation === 'refused') {
        return failure(
          200,
          ResultCode.OpenNotAuthorized,
          translateResult(ResultCode.OpenNotAuthorized, 'en') as string,
        );
      }
      if (generation === 'invalid') {
        return failure(400, 400, 'Invalid input, please check', [
          { path: 'startTime', message: translateValidation('v.pinNonWorking', 'en') },
        ]);
      }
      const pin = pinRow('new', { deviceId: body.deviceId, userId: body.userId, type: body.type });
      // A durable PIN's code is drawn when its lock wakes: none is answered now.
      return answer({ pin, code: body.type === 'durable' ? null : CODE });
    }
    case '/pin/showCode':
      return answer({ pin: { ...STORED, abilities: { revoke: true, showCode: false } }, code: STORED_CODE });
    case '/pin/revoke':
      return answer({ ...ONCE, useState: 'disabled', pendingDeletion: true });
    case '/pin/eraseCode':
      return answer({ code: ERASE_CODE, validUntil: '2030-01-02T08:00:00.000Z', disabled: 2 });
    default:
      return answer(null);
  }
};

let client: QueryClient;

/** Renders as the console does, keeping the query cache at hand to look into. */
function renderWith(page: ReactElement) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>{page}</App>
    </QueryClientProvider>,
  );
}

const tableRows = (table = 'offlinePins-table') =>
  [...screen.getByTestId(table).querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
const callsTo = (path: string) => calls.filter((call) => call.path === path);

async function click(element: Element) {
  await act(async () => {
    fireEvent.click(element);
  });
}

async function openGenerate(page: ReactElement = <OfflinePinsPage />, table = 'offlinePins-table') {
  renderWith(page);
  await waitFor(() => expect(tableRows(table).length).toBe(rows.length));
  await click(screen.getByTestId(`${table.replace('-table', '')}-toolbar-generate`));
  return screen.findByTestId('pinGenerate');
}

/** Chooses the lock and the user and writes the reason: a complete once-PIN. */
async function fillIn() {
  await chooseOption('pin-deviceId', 'Tsuen Wan tunnel door');
  await chooseOption('pin-userId', 'Chan Tai Man');
  fireEvent.change(screen.getByTestId('pin-reason'), { target: { value: 'Inspect the door' } });
}

/** A time as the console shows it: the station's wall clock (UTC+8), whatever the machine's zone. */
const pickerText = (iso: string) => consoleClock(iso).format(DATE_TIME_FORMAT);

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls.length = 0;
  rows = [ONCE, WEEKLY, DURABLE];
  generation = 'ok';
  await i18n.changeLanguage('en');
  signInWith(['pin.read', 'pin.generate', 'pin.revoke']);
});

afterEach(() => cleanup());

// A first render of antd in jsdom is slow on a busy machine.
describe('PinList', { timeout: 30_000 }, () => {
  it('shows each PIN masked, with its use state, what allowed it and a weekly PINs weekdays', async () => {
    renderWith(<OfflinePinsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    const [once, weekly, durable] = tableRows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(once).getByText('•••••••••')).toBeTruthy();
    expect(within(once).getByText('Once')).toBeTruthy();
    expect(within(once).getByText('TOTP (offline)')).toBeTruthy();
    expect(within(once).getByText('Tunnel inspection')).toBeTruthy();
    expect(within(once).getByTestId('pin-useState').dataset.state).toBe('enabled');

    expect(within(weekly).getByText('Mon, Wed')).toBeTruthy();
    expect(within(weekly).getByText('Fixed authorisation')).toBeTruthy();
    expect(within(weekly).getByText('Disabled')).toBeTruthy();
    expect(within(weekly).getByTestId('pin-pendingDeletion').textContent).toBe('Pending deletion');

    expect(within(durable).getByText('Durable')).toBeTruthy();
    expect(within(durable).getByText('Custom (LoRaWAN)')).toBeTruthy();
    expect(within(durable).getByText('Expired')).toBeTruthy();
    expect(within(durable).getByTestId('pin-storage').textContent).toBe('Waiting to be sent');
    expect(within(durable).getByText(pickerText(DURABLE.usageTime as string))).toBeTruthy();
  });

  it('searches by lock, type, use state and user name', async () => {
    signInWith(['pin.read', 'device.read']);
    renderWith(<OfflinePinsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    await chooseOption('offlinePins-search-deviceId', 'Tsuen Wan tunnel door');
    await chooseOption('offlinePins-search-type', 'Weekly');
    await chooseOption('offlinePins-search-useState', 'Expired');
    fireEvent.change(screen.getByTestId('offlinePins-search-keyword'), { target: { value: ' Lee ' } });
    await click(screen.getByTestId('offlinePins-search-submit'));
    await waitFor(() =>
      expect(callsTo('/pin/queryPage').at(-1)?.query).toMatchObject({
        deviceId: 'd1',
        type: 'weekly',
        useState: 'expire',
        keyword: 'Lee',
      }),
    );
  });

  it('offers Disable only on the PINs the server says may be revoked, after a question', async () => {
    renderWith(<OfflinePinsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    const [once, weekly] = tableRows() as [HTMLElement, HTMLElement];
    expect(within(weekly).queryByTestId('offlinePins-row-disable')).toBeNull();
    await click(within(once).getByTestId('offlinePins-row-disable'));
    await click(await screen.findByTestId('offlinePins-confirm-ok'));
    await waitFor(() => expect(callsTo('/pin/revoke').map((call) => call.query)).toEqual([{ id: 'p1' }]));
    await waitFor(() => expect(toasts).toContain('success: Disabled successfully'));
  });

  it('shows Generate PIN and Erase code only to holders of their keys, the lock search to device readers', async () => {
    signInWith(['pin.read']);
    renderWith(<OfflinePinsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(screen.queryByTestId('offlinePins-search-deviceId')).toBeNull();
    expect(screen.queryByTestId('offlinePins-toolbar-generate')).toBeNull();
    expect(screen.queryByTestId('offlinePins-toolbar-erase')).toBeNull();
    expect(screen.queryAllByTestId('offlinePins-row-disable')).toEqual([]);
  });

  it('refuses a PIN without lock, user or reason, and a weekly PIN without weekdays, before calling', async () => {
    const dialog = await openGenerate();
    await click(screen.getByTestId('pinGenerate-submit'));
    await waitFor(() =>
      expect(within(dialog).getAllByText(translateValidation('v.required', 'en'))).toHaveLength(3),
    );
    await fillIn();
    await click(screen.getByTestId('pin-type-weekly'));
    expect(screen.getByTestId('pin-weekdays')).toBeTruthy();
    await click(screen.getByTestId('pinGenerate-submit'));
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.pinWeekdays', 'en'))).toBeTruthy(),
    );
    expect(callsTo('/pin/generate')).toEqual([]);
  });

  it("ends a once or time-period PIN with its window, and says what each type's window is", async () => {
    const dialog = await openGenerate();
    const start = (screen.getByTestId('pin-startTime') as HTMLInputElement).value;
    const startIso = instantOf(dayjs(start, DATE_TIME_FORMAT));
    const hourOf = (iso: string) => Math.floor(Date.parse(iso) / 3_600_000) * 3_600_000;
    const end = () => (screen.getByTestId('pin-endTime') as HTMLInputElement).value;
    expect(end()).toBe(pickerText(new Date(hourOf(startIso) + 2 * 3_600_000).toISOString()));
    expect(
      within(dialog).getByText(/Valid for 2 hours from the whole hour of its start; opens once/),
    ).toBeTruthy();

    await click(screen.getByTestId('pin-type-timePeriod'));
    await waitFor(() =>
      expect(end()).toBe(pickerText(new Date(hourOf(startIso) + 4 * 3_600_000).toISOString())),
    );
    expect(within(dialog).getByText(/outside working hours \(Monday–Friday 8:00–18:00\)/)).toBeTruthy();
    await click(screen.getByTestId('pin-type-weekly'));
    expect(within(dialog).getByText(/00:00–06:00 on the weekdays chosen.*at most 7 weeks/)).toBeTruthy();
  });

  it('shows the code once, large and copyable, and keeps it nowhere once closed', async () => {
    await openGenerate();
    await fillIn();
    await click(screen.getByTestId('pinGenerate-submit'));
    await waitFor(() => expect(callsTo('/pin/generate')).toHaveLength(1));
    expect(callsTo('/pin/generate')[0]?.body).toMatchObject({
      deviceId: 'd1',
      userId: 's1',
      type: 'once',
      algorithm: 'totp',
      weekdays: [],
      reason: 'Inspect the door',
    });
    const shown = await screen.findByTestId('pinCode');
    expect(within(shown).getByTestId('pinCode-password').textContent).toContain(CODE);
    expect(within(shown).getByTestId('pinCode-copy')).toBeTruthy();
    expect(shown.textContent).toContain('shown only now');
    expect(toasts).toContain('success: Generated successfully');
    // The list is asked again, for the new PIN.
    await waitFor(() => expect(callsTo('/pin/queryPage').length).toBeGreaterThan(1));

    await click(screen.getByTestId('pinCode-close'));
    await waitFor(() => expect(screen.queryByTestId('pinCode')).toBeNull());
    expect(document.body.textContent).not.toContain(CODE);
    const cached = client
      .getQueryCache()
      .getAll()
      .map((query) => JSON.stringify(query.state.data ?? null));
    expect(cached.join('')).not.toContain(CODE);
    expect(client.getMutationCache().getAll()).toEqual([]);
  });

  it("says a durable PIN's code comes when its lock wakes, then shows it once from its row", async () => {
    await openGenerate();
    await fillIn();
    await click(screen.getByTestId('pin-type-durable'));
    await click(screen.getByTestId('pinGenerate-submit'));
    await waitFor(() => expect(callsTo('/pin/generate')[0]?.body).toMatchObject({ type: 'durable' }));
    const awaiting = await screen.findByTestId('pinCode');
    expect(within(awaiting).queryByTestId('pinCode-password')).toBeNull();
    expect(within(awaiting).getByTestId('pinCode-note').textContent).toContain('"Show code"');
    expect(screen.getByText('Durable PIN generated')).toBeTruthy();
    await click(screen.getByTestId('pinCode-close'));
    await waitFor(() => expect(screen.queryByTestId('pinCode')).toBeNull());
    cleanup();

    rows = [ONCE, STORED];
    renderWith(<OfflinePinsPage />);
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [once, stored] = tableRows() as [HTMLElement, HTMLElement];
    expect(within(once).queryByTestId('offlinePins-row-showCode')).toBeNull();
    await click(within(stored).getByTestId('offlinePins-row-showCode'));
    await waitFor(() => expect(callsTo('/pin/showCode').map((call) => call.query)).toEqual([{ id: 'p4' }]));
    const shown = await screen.findByTestId('pinCode');
    expect(within(shown).getByTestId('pinCode-password').textContent).toContain(STORED_CODE);
    expect(screen.getByText('Code of the durable PIN')).toBeTruthy();
    expect(shown.textContent).toContain('shown only now');
    await click(screen.getByTestId('pinCode-close'));
    await waitFor(() => expect(screen.queryByTestId('pinCode')).toBeNull());
    expect(document.body.textContent).not.toContain(STORED_CODE);
  });

  it("shows the server's field errors on their fields", async () => {
    generation = 'invalid';
    const dialog = await openGenerate();
    await fillIn();
    await click(screen.getByTestId('pinGenerate-submit'));
    const start = screen.getByTestId('pin-startTime').closest('.ant-form-item') as HTMLElement;
    await waitFor(() =>
      expect(within(start).getByText(translateValidation('v.pinNonWorking', 'en'))).toBeTruthy(),
    );
    expect(within(dialog).queryByTestId('pinGenerate-refusal')).toBeNull();
  });

  it('shows the refusal of the "who may open" decision in the dialog, which stays open', async () => {
    generation = 'refused';
    const dialog = await openGenerate();
    await fillIn();
    await click(screen.getByTestId('pinGenerate-submit'));
    const reason = translateResult(ResultCode.OpenNotAuthorized, 'en') as string;
    await waitFor(() =>
      expect(within(dialog).getByTestId('pinGenerate-refusal').textContent).toContain(reason),
    );
    // A result code past 500 is named with its code, as everywhere in the console.
    expect(toasts).toEqual([`error: Generate failed: ${reason} (${ResultCode.OpenNotAuthorized})`]);
    expect(screen.queryByTestId('pinCode')).toBeNull();
  });

  it("lists one lock's PINs in the monitor's tab, and generates and erases for that lock", async () => {
    const tab = <PinList id="monitorPins" title="PINs" device={{ id: 'd9', name: 'Gate 9' }} />;
    await openGenerate(tab, 'monitorPins-table');
    expect(callsTo('/pin/queryPage')[0]?.query).toMatchObject({ deviceId: 'd9' });
    expect(screen.queryByText('Lock', { selector: 'th *, th' })).toBeNull();
    const lock = screen.getByTestId('pin-deviceId').closest('.ant-select') as HTMLElement;
    expect(lock.textContent).toContain('Gate 9');
    expect(lock.className).toContain('ant-select-disabled');
    // The lock is known: the ledger is not searched for it.
    expect(callsTo('/device/queryPage')).toEqual([]);
    await chooseOption('pin-userId', 'Chan Tai Man');
    fireEvent.change(screen.getByTestId('pin-reason'), { target: { value: 'Night work' } });
    await click(screen.getByTestId('pinGenerate-submit'));
    await waitFor(() => expect(callsTo('/pin/generate')[0]?.body).toMatchObject({ deviceId: 'd9' }));
    await click(await screen.findByTestId('pinCode-close'));
    await waitFor(() => expect(screen.queryByTestId('pinCode')).toBeNull());

    await click(screen.getByTestId('monitorPins-toolbar-erase'));
    await screen.findByTestId('eraseAsk');
    await click(screen.getByTestId('eraseAsk-submit'));
    await waitFor(() =>
      expect(callsTo('/pin/eraseCode').map((call) => call.query)).toEqual([{ deviceId: 'd9' }]),
    );
    const erase = await screen.findByTestId('eraseCode');
    expect(within(erase).getByTestId('eraseCode-password').textContent).toContain(ERASE_CODE);
    expect(within(erase).getByTestId('eraseCode-disabled').textContent).toBe('2');
    expect(within(erase).getByTestId('eraseCode-validUntil').textContent).toBe(
      pickerText('2030-01-02T08:00:00.000Z'),
    );
    expect(erase.textContent).toContain('Gate 9');
  });
});
