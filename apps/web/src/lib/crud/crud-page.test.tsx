// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api, type RoleListRow, roleForm, translateValidation } from '@uiot/contracts';
import { App } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { answer, type FakeCall, readCall, signInWith, useFakeServer } from '../test/fake-server.ts';
import { CrudPage, type CrudPageProps, crudResource, SchemaField } from './index.ts';

/**
 * The kit rendered as a page uses it, against a fake server: what it asks the server for (search, paging,
 * sort), what the dialog refuses before calling anything, and which buttons a user's keys leave.
 */

let calls: FakeCall[] = [];
let total = 3;

const row = (n: number): RoleListRow => ({
  id: `r${n}`,
  name: `Role ${n}`,
  roleType: null,
  description: null,
  deptId: null,
  deptName: null,
  builtIn: false,
  staffCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  // The server's policy, as the list answers it: role 2 may not be deleted.
  abilities: { update: true, grant: true, delete: n !== 2 },
});

/** The fake server: a page of roles for every query, success for every save. */
const fakeFetch: typeof fetch = async (input, init) => {
  const call = readCall(input, init);
  calls.push(call);
  const pageSize = Number(call.query.pageSize ?? 20);
  return answer(
    call.path.endsWith('/queryPage')
      ? { rows: Array.from({ length: Math.min(total, pageSize) }, (_, i) => row(i + 1)), total }
      : { id: 'new' },
  );
};

function RolesForTest(props: Partial<CrudPageProps<RoleListRow, typeof roleForm>>) {
  return (
    <CrudPage<RoleListRow, typeof roleForm>
      id="roles"
      title="Roles"
      rowKey="id"
      query={api.role.queryPage}
      columns={[
        { key: 'name', title: 'Name', sortable: true },
        { key: 'createdAt', title: 'Created', format: 'dateTime' },
      ]}
      search={[{ kind: 'text', name: 'name', label: 'Name' }]}
      resource={crudResource({ save: api.role.save, update: api.role.update, del: api.role.del })}
      form={{
        schema: roleForm,
        label: (field) => `label:${field}`,
        testId: 'role',
        fields: () => <SchemaField name="name" />,
      }}
      remove={{ name: (r) => r.name }}
      {...props}
    />
  );
}

function renderPage(props: Partial<CrudPageProps<RoleListRow, typeof roleForm>> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <RolesForTest {...props} />
      </App>
    </QueryClientProvider>,
  );
}

const queries = () => calls.filter((call) => call.path === '/role/queryPage').map((call) => call.query);
const lastQuery = () => queries().at(-1);
const tableRows = () => screen.getByTestId('roles-table').querySelectorAll('tbody tr.ant-table-row');

beforeAll(() => useFakeServer(fakeFetch));

beforeEach(async () => {
  calls = [];
  total = 3;
  await i18n.changeLanguage('en');
  signInWith(['role.read', 'role.create', 'role.update', 'role.delete']);
});

afterEach(() => {
  cleanup();
});

// A first render of antd in jsdom is slow on a busy machine.
describe('CrudPage', { timeout: 30_000 }, () => {
  it('loads page 1 of 20 rows and shows them', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(lastQuery()).toEqual({ pageIndex: '1', pageSize: '20' });
    expect(screen.getByText('Role 2')).toBeTruthy();
  });

  it('searches with the trimmed text from page 1, and resets', async () => {
    renderPage();
    await waitFor(() => expect(queries()).toHaveLength(1));
    fireEvent.change(screen.getByTestId('roles-search-name'), { target: { value: '  Ops ' } });
    fireEvent.click(screen.getByTestId('roles-search-submit'));
    await waitFor(() => expect(lastQuery()).toEqual({ name: 'Ops', pageIndex: '1', pageSize: '20' }));
    fireEvent.click(screen.getByTestId('roles-search-reset'));
    await waitFor(() => expect(lastQuery()).toEqual({ pageIndex: '1', pageSize: '20' }));
  });

  it('pages through the server: the next page asks for pageIndex 2', async () => {
    total = 45;
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(20));
    expect(screen.getByText('45 in total')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery()).toEqual({ pageIndex: '2', pageSize: '20' }));
  });

  it('sorts on the server: a click on a sortable title sends sort and ascending', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    const nameTitle = () =>
      screen.getByTestId('roles-table').querySelector('th.ant-table-column-has-sorters');
    fireEvent.click(nameTitle() as Element);
    await waitFor(() =>
      expect(lastQuery()).toEqual({ sort: 'name', ascending: 'true', pageIndex: '1', pageSize: '20' }),
    );
    fireEvent.click(nameTitle() as Element);
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'name', ascending: 'false' }));
  });

  it("refuses a dialog the schema refuses, on the field, in the user's language, and calls nothing", async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('roles-create'));
    const dialog = await screen.findByTestId('roles-dialog');
    expect(within(dialog).getByText('label:name')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('roles-dialog-submit'));
    });
    await waitFor(() =>
      expect(within(dialog).getByText(translateValidation('v.required', 'en'))).toBeTruthy(),
    );
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByTestId('role-name'), { target: { value: ' Night shift ' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('roles-dialog-submit'));
    });
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST')).toEqual([
        { method: 'POST', path: '/role/save', query: {}, body: { name: 'Night shift' } },
      ]),
    );
  });

  it('leaves out every button whose endpoint the user may not call', async () => {
    signInWith(['role.read']);
    renderPage({ exports: { endpoint: api.role.queryPage } });
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(screen.queryByTestId('roles-create')).toBeNull();
    expect(screen.queryAllByTestId('roles-row-edit')).toEqual([]);
    expect(screen.queryAllByTestId('roles-row-delete')).toEqual([]);
    expect(screen.getByTestId('roles-export')).toBeTruthy();
  });

  it('shows each button to a holder of its key only', async () => {
    signInWith(['role.read', 'role.delete']);
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(screen.queryByTestId('roles-create')).toBeNull();
    expect(screen.queryAllByTestId('roles-row-edit')).toEqual([]);
    expect(screen.getAllByTestId('roles-row-delete')).toHaveLength(3);
  });

  it("offers a row action only on the rows the server's abilities allow", async () => {
    renderPage({ remove: { name: (r) => r.name, when: (r) => r.abilities.delete } });
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    const rowOf = (button: HTMLElement) => button.closest('tr')?.getAttribute('data-row-key');
    expect(screen.getAllByTestId('roles-row-delete').map(rowOf)).toEqual(['r1', 'r3']);
    expect(screen.getAllByTestId('roles-row-edit')).toHaveLength(3);
  });

  it('updates a row with its id and deletes it by id after the confirmation (crudResource)', async () => {
    renderPage();
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId('roles-row-edit')[0] as HTMLElement);
    await screen.findByTestId('roles-dialog');
    fireEvent.change(screen.getByTestId('role-name'), { target: { value: 'Renamed' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('roles-dialog-submit'));
    });
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: '/role/update',
          query: {},
          body: { name: 'Renamed', roleType: null, description: null, deptId: null, id: 'r1' },
        },
      ]),
    );

    fireEvent.click(screen.getAllByTestId('roles-row-delete')[1] as HTMLElement);
    await act(async () => {
      fireEvent.click(await screen.findByTestId('roles-confirm-ok'));
    });
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/role/del').map((call) => call.query)).toEqual([
        { id: 'r2' },
      ]),
    );
  });
});
