// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type FixedAuthorizationRow, translateValidation } from '@uiot/contracts';
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
import { FixedAuthorizationsPage } from './fixed-authorizations-page.tsx';

/**
 * The page against a fake server: how it shows an authorisation's devices and time, what its dialog refuses
 * before calling anything (the shared schema's messages, translated), and what it sends.
 */

const calls: FakeCall[] = [];

const ROWS: FixedAuthorizationRow[] = [
  {
    id: 'a1',
    objectType: 'staff',
    objectId: 's1',
    objectName: 'Chan Tai Man',
    forever: false,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-02-01T00:00:00.000Z',
    state: 'expired',
    allDevice: false,
    devices: ['Gate 1', 'Gate 2', 'Gate 3', 'Gate 4', 'Gate 5'].map((name, i) => ({ id: `d${i + 1}`, name })),
    createdByName: 'admin',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'a2',
    objectType: 'department',
    objectId: 'dep1',
    objectName: 'Maintenance',
    forever: true,
    startTime: null,
    endTime: null,
    state: 'active',
    allDevice: true,
    devices: [],
    createdByName: 'admin',
    updatedAt: '2026-01-02T00:00:00.000Z',
  },
];

const ANSWERS: Record<string, unknown> = {
  '/fixedAuthorization/queryPage': { rows: ROWS, total: ROWS.length },
  '/staff/getAll': [{ id: 's1', name: 'Chan Tai Man' }],
  '/department/getTree': [],
  '/device/queryPage': { rows: [], total: 0 },
};

const fakeFetch = answeringServer(ANSWERS, calls);

const renderPage = () => renderWith(<FixedAuthorizationsPage />);

const tableRows = () =>
  screen.getByTestId('fixedAuthorizations-table').querySelectorAll('tbody tr.ant-table-row');
const posts = () => postsOf(calls);

async function openCreate() {
  renderPage();
  await waitFor(() => expect(tableRows()).toHaveLength(2));
  fireEvent.click(screen.getByTestId('fixedAuthorizations-create'));
  return screen.findByTestId('fixedAuthorizations-dialog');
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('fixedAuthorizations-dialog-submit'));
  });
}

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls.length = 0;
  await i18n.changeLanguage('en');
  signInWith([
    'fixedAuthorization.read',
    'fixedAuthorization.create',
    'fixedAuthorization.update',
    'fixedAuthorization.delete',
  ]);
});

afterEach(() => cleanup());

// A first render of antd in jsdom is slow on a busy machine.
describe('FixedAuthorizationsPage', { timeout: 30_000 }, () => {
  it('names a few devices and counts the rest, and reads a permanent one as forever for all devices', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const [timed, permanent] = [...tableRows()] as HTMLElement[];
    expect(within(timed as HTMLElement).getByText('Gate 1, Gate 2, Gate 3')).toBeTruthy();
    expect(within(timed as HTMLElement).getByText('+2 more')).toBeTruthy();
    expect(within(timed as HTMLElement).getByText('Expired')).toBeTruthy();
    expect(within(permanent as HTMLElement).getByText('All devices')).toBeTruthy();
    expect(within(permanent as HTMLElement).getByText('Forever')).toBeTruthy();
    expect(within(permanent as HTMLElement).getByText('In force')).toBeTruthy();
  });

  it('refuses an authorisation without a time range or devices, with the translated messages', async () => {
    const dialog = await openCreate();
    await submit();
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.required', 'en'))).toBeTruthy(),
    );
    // The shared schema compares the fields with each other once each field is valid on its own.
    await chooseOption('fixedAuthorization-objectId', 'Chan Tai Man');
    await submit();
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.timeRangeRequired', 'en'))).toBeTruthy(),
    );
    expect(within(dialog).getByText(translateValidation('v.authorizationDevices', 'en'))).toBeTruthy();
    // The staff member's 'required' goes once chosen (after the message's leaving motion).
    await waitFor(() =>
      expect(within(dialog).queryByText(translateValidation('v.required', 'en'))).toBeNull(),
    );
    expect(posts()).toEqual([]);
  });

  it('hides the times when forever and the devices when all devices, and sends neither', async () => {
    const dialog = await openCreate();
    expect(screen.getByTestId('fixedAuthorization-startTime')).toBeTruthy();
    expect(screen.getByTestId('fixedAuthorization-endTime')).toBeTruthy();
    expect(screen.getByTestId('fixedAuthorization-deviceIds')).toBeTruthy();

    fireEvent.click(screen.getByTestId('fixedAuthorization-forever'));
    fireEvent.click(screen.getByTestId('fixedAuthorization-allDevice'));
    await waitFor(() => expect(screen.queryByTestId('fixedAuthorization-startTime')).toBeNull());
    expect(screen.queryByTestId('fixedAuthorization-endTime')).toBeNull();
    expect(screen.queryByTestId('fixedAuthorization-deviceIds')).toBeNull();

    await chooseOption('fixedAuthorization-objectId', 'Chan Tai Man');
    await submit();
    await waitFor(() =>
      expect(posts()).toEqual([
        {
          method: 'POST',
          path: '/fixedAuthorization/save',
          body: {
            objectType: 'staff',
            objectId: 's1',
            forever: true,
            startTime: null,
            endTime: null,
            allDevice: true,
            deviceIds: [],
          },
        },
      ]),
    );
    expect(within(dialog).queryByText(translateValidation('v.timeRangeRequired', 'en'))).toBeNull();
  });

  it('edits a row with its stored devices, named, and sends them back with its id', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId('fixedAuthorizations-row-edit')[0] as HTMLElement);
    await screen.findByTestId('fixedAuthorizations-dialog');
    const devices = screen.getByTestId('fixedAuthorization-deviceIds').closest('.ant-select') as HTMLElement;
    // Chosen devices the search has not found are offered by their stored names.
    fireEvent.mouseDown(devices.querySelector('input') as Element);
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('.ant-select-item-option')].map((node) => node.textContent),
      ).toEqual(['Gate 1', 'Gate 2', 'Gate 3', 'Gate 4', 'Gate 5']),
    );
    await submit();
    await waitFor(() =>
      expect(posts()).toEqual([
        {
          method: 'POST',
          path: '/fixedAuthorization/update',
          body: {
            objectType: 'staff',
            objectId: 's1',
            forever: false,
            startTime: '2026-01-01T00:00:00.000Z',
            endTime: '2026-02-01T00:00:00.000Z',
            allDevice: false,
            deviceIds: ['d1', 'd2', 'd3', 'd4', 'd5'],
            id: 'a1',
          },
        },
      ]),
    );
  });

  it('shows the add, edit and delete buttons only to holders of their keys', async () => {
    signInWith(['fixedAuthorization.read', 'fixedAuthorization.delete']);
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    expect(screen.queryByTestId('fixedAuthorizations-create')).toBeNull();
    expect(screen.queryAllByTestId('fixedAuthorizations-row-edit')).toEqual([]);
    expect(screen.getAllByTestId('fixedAuthorizations-row-delete')).toHaveLength(2);
  });
});
