// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { answeringServer, type FakeCall, signInWith, useFakeServer } from '../../lib/test/fake-server.ts';
import { renderPage } from '../../lib/test/render-page.tsx';
import { HomeTaskCards } from './home-task-cards.tsx';
import { operationRow, taskRow } from './test-rows.ts';

/** Home's lock task cards against a fake server: today's operations and tasks, my tasks by scope. */

const calls: FakeCall[] = [];

beforeAll(() =>
  useFakeServer(
    answeringServer(
      {
        '/fp/getTodayDeviceOp': {
          total: 7,
          rows: [operationRow('r1', { result: 'refused', refusal: 'notAuthorized', staffName: 'Wong' })],
        },
        '/fp/getTodayTask': {
          total: 1,
          rows: [taskRow('t1', 'Replace the cable of gate 3', { state: 'Execute' })],
        },
        '/lockTask/queryPage': { total: 1, rows: [taskRow('t2', 'Inspect the signal room')] },
      },
      calls,
    ),
  ),
);

beforeEach(() => {
  calls.length = 0;
});

afterEach(() => cleanup());

const render = () =>
  renderPage(
    <MemoryRouter>
      <HomeTaskCards />
    </MemoryRouter>,
  );

describe('HomeTaskCards', { timeout: 30_000 }, () => {
  it("shows today's operations with a refusal's reason, today's tasks and my tasks to audit", async () => {
    await i18n.changeLanguage('en');
    signInWith(['lockTask.read', 'operationRecord.read']);
    render();
    const operations = await screen.findByTestId('home-today-operations');
    await waitFor(() => expect(within(operations).getByText('Wong')).toBeTruthy());
    expect(within(operations).getByTestId('home-today-operations-total').dataset.total).toBe('7');
    expect(within(operations).getByTestId('operation-refusal').textContent).toContain(
      'no lock task or fixed authorisation',
    );
    const tasks = screen.getByTestId('home-today-tasks');
    await waitFor(() => expect(within(tasks).getByText('Replace the cable of gate 3')).toBeTruthy());
    expect(within(tasks).getByTestId('lockTasks-state-Execute').textContent).toBe('In progress');
    const mine = screen.getByTestId('home-my-tasks');
    await waitFor(() => expect(within(mine).getByText('Inspect the signal room')).toBeTruthy());
    const scopes = calls.filter((c) => c.path === '/lockTask/queryPage').map((c) => c.query.scope);
    expect(scopes).toEqual(['toAudit']);
  });

  it('shows no card to who may read neither tasks nor records', async () => {
    signInWith(['device.read']);
    render();
    await new Promise((done) => setTimeout(done, 50));
    expect(screen.queryByTestId('home-my-tasks')).toBeNull();
    expect(screen.queryByTestId('home-today-tasks')).toBeNull();
    expect(screen.queryByTestId('home-today-operations')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('shows only the operations card to a reader of the records', async () => {
    signInWith(['operationRecord.read']);
    render();
    expect(await screen.findByTestId('home-today-operations')).toBeTruthy();
    expect(screen.queryByTestId('home-my-tasks')).toBeNull();
  });
});
