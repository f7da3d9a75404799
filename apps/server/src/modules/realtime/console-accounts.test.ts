import { Permission, ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import type { ConsoleBrokerAccess, ConsoleBrokerAccount } from '../../infra/mqtt/dynsec.ts';
import { recordingLogger } from '../../lib/test-support.ts';
import { boardUsername } from '../alarms/index.ts';
import {
  ConsoleAccounts,
  consoleUsername,
  sessionOfConsoleUsername,
  staffBrokerLogins,
} from './console-accounts.ts';

const hash = (digit: string) => digit.repeat(64);

const MONITOR: ReadonlySet<string> = new Set([Permission.MonitorRead]);

/** A broker that keeps its accounts in a map; `updates` counts the accounts whose kinds changed. */
function fakeBroker(initial: string[] = []) {
  const accounts = new Map<string, ConsoleBrokerAccount | null>(initial.map((name) => [name, null]));
  let failing = false;
  let updates = 0;
  const access: ConsoleBrokerAccess = {
    async grantConsole(account) {
      if (failing) throw new Error('dynamic security plugin did not answer');
      const existing = accounts.get(account.username);
      accounts.set(account.username, existing ? { ...existing, kinds: account.kinds } : account);
    },
    async updateConsoles(readings) {
      let changed = 0;
      for (const reading of readings) {
        const existing = accounts.get(reading.username);
        if (!existing || existing.kinds.join() === reading.kinds.join()) continue;
        accounts.set(reading.username, { ...existing, kinds: reading.kinds });
        changed++;
      }
      updates += changed;
      return changed;
    },
    async revokeConsoles(usernames) {
      for (const username of usernames) accounts.delete(username);
    },
    async listClients() {
      return [...accounts.keys()];
    },
  };
  return { access, accounts, fail: () => (failing = true), updates: () => updates };
}

function consoleAccounts(
  broker: ReturnType<typeof fakeBroker>,
  standing: Set<string>,
  ended: Record<string, string[]> = {},
  options: {
    keys?: Map<string, ReadonlySet<string>>;
    open?: Record<string, string[]>;
    boards?: Set<string>;
  } = {},
) {
  const log = recordingLogger();
  const keys = options.keys ?? new Map<string, ReadonlySet<string>>();
  const accounts = new ConsoleAccounts({
    access: broker.access,
    stationId: 'S1',
    sessionStands: async (tokenHash) => standing.has(tokenHash),
    permissionsOf: async (tokenHash) => (standing.has(tokenHash) ? (keys.get(tokenHash) ?? MONITOR) : null),
    endedSessionsOf: async (staffId) => ended[staffId] ?? [],
    openSessionsOf: async (staffId) => options.open?.[staffId] ?? [],
    boardStands: async (tokenHash) => options.boards?.has(tokenHash) ?? false,
    logger: log.logger,
  });
  return { accounts, log, keys };
}

/** A signed-in user of session `tokenHash` holding these keys. */
const user = (tokenHash: string, permissions: ReadonlySet<string> = MONITOR) => ({
  staffId: 'staff-1',
  tokenHash,
  permissions,
});

describe('console usernames', () => {
  it('are the session token hash behind web-, and nothing else is taken for one', () => {
    expect(consoleUsername(hash('a'))).toBe(`web-${hash('a')}`);
    expect(sessionOfConsoleUsername(`web-${hash('a')}`)).toBe(hash('a'));
    for (const other of [
      'LOCK-1',
      'chirpstack',
      'web-',
      `web-${hash('A')}`,
      `web-${hash('a')}0`,
      hash('a'),
    ]) {
      expect(sessionOfConsoleUsername(other)).toBeNull();
    }
  });
});

describe('ConsoleAccounts', () => {
  it("grants the session's account with its token as password and answers its username", async () => {
    const broker = fakeBroker();
    const { accounts } = consoleAccounts(broker, new Set([hash('a')]));
    const login = await accounts.loginFor(user(hash('a')), 'token-a');
    expect(login).toEqual({ username: `web-${hash('a')}` });
    expect(broker.accounts.get(login.username)).toEqual({
      username: login.username,
      password: 'token-a',
      stationId: 'S1',
      kinds: ['runtime'],
    });
  });

  it('finding 6: gives the account the kinds its permissions read, none without them', async () => {
    const broker = fakeBroker();
    const sessions = new Set([hash('a'), hash('b')]);
    const keys = new Map<string, ReadonlySet<string>>([
      [hash('a'), new Set()],
      [hash('b'), new Set([Permission.DeviceCommandRead])],
    ]);
    const { accounts } = consoleAccounts(broker, sessions, {}, { keys });
    const none = await accounts.loginFor(user(hash('a'), new Set()), 'token-a');
    const commands = await accounts.loginFor(user(hash('b'), keys.get(hash('b'))), 'token-b');
    expect(broker.accounts.get(none.username)?.kinds).toEqual([]);
    expect(broker.accounts.get(commands.username)?.kinds).toEqual(['command']);
  });

  it('finding 6: corrects the account when the permissions changed while it was granted', async () => {
    const broker = fakeBroker();
    // The request was signed in with monitor.read; the role lost it before the account existed.
    const { accounts } = consoleAccounts(
      broker,
      new Set([hash('a')]),
      {},
      {
        keys: new Map([[hash('a'), new Set()]]),
      },
    );
    const login = await accounts.loginFor(user(hash('a'), MONITOR), 'token-a');
    expect(broker.accounts.get(login.username)?.kinds).toEqual([]);
  });

  it("finding 6: brings a user's accounts, or everyone's, in step with their permissions when they change", async () => {
    const broker = fakeBroker();
    const sessions = new Set([hash('1'), hash('2'), hash('3')]);
    const { accounts, keys } = consoleAccounts(
      broker,
      sessions,
      {},
      {
        open: { 'staff-1': [hash('1'), hash('2')], 'staff-2': [hash('3')] },
      },
    );
    for (const digit of ['1', '2', '3']) await accounts.loginFor(user(hash(digit)), `token-${digit}`);
    const kindsOf = () => ['1', '2', '3'].map((d) => broker.accounts.get(consoleUsername(hash(d)))?.kinds);

    // staff-1's role loses monitor.read: its two sessions lose runtime, staff-2's keeps it.
    keys.set(hash('1'), new Set());
    keys.set(hash('2'), new Set());
    keys.set(hash('3'), new Set());
    await accounts.sessionsChanged({ scope: 'staff', staffId: 'staff-1' });
    expect(kindsOf()).toEqual([[], [], ['runtime']]);

    // A role's grants change: everyone is looked at. A single session's change is an end, not this.
    keys.set(hash('1'), new Set([Permission.DeviceCommandRead]));
    await accounts.sessionsChanged({ scope: 'session', tokenHash: hash('1') });
    expect(kindsOf()).toEqual([[], [], ['runtime']]);
    await accounts.sessionsChanged({ scope: 'all' });
    expect(kindsOf()).toEqual([['command'], [], []]);
    expect(broker.updates()).toBe(4);
  });

  it('applies changes heard while applying others together, and logs a failure without a token', async () => {
    const broker = fakeBroker();
    const sessions = new Set([hash('1')]);
    const { accounts, keys, log } = consoleAccounts(
      broker,
      sessions,
      {},
      { open: { 'staff-1': [hash('1')] } },
    );
    await accounts.loginFor(user(hash('1')), 'token-secret-1');
    keys.set(hash('1'), new Set());
    const first = accounts.sessionsChanged({ scope: 'all' });
    const second = accounts.sessionsChanged({ scope: 'staff', staffId: 'staff-1' });
    const third = accounts.sessionsChanged({ scope: 'all' });
    expect(second).toBe(first);
    expect(third).toBe(first);
    await first;
    expect(broker.accounts.get(consoleUsername(hash('1')))?.kinds).toEqual([]);

    broker.fail();
    broker.access.listClients = () => Promise.reject(new Error('broker away'));
    await expect(accounts.sessionsChanged({ scope: 'all' })).resolves.toBeUndefined();
    expect(log.lines.at(-1)?.msg).toBe('console accounts not brought in step with permissions');
    expect(JSON.stringify(log.lines)).not.toContain('token-secret-1');
  });

  it('removes the account again when the session ended while it was granted', async () => {
    const broker = fakeBroker();
    const { accounts } = consoleAccounts(broker, new Set());
    await expect(accounts.loginFor(user(hash('b')), 'token-b')).rejects.toMatchObject({
      code: ResultCode.SessionExpired,
    });
    expect(broker.accounts.size).toBe(0);
  });

  it('answers ServiceUnavailable when the broker cannot be administered, and logs no token', async () => {
    const broker = fakeBroker();
    broker.fail();
    const { accounts, log } = consoleAccounts(broker, new Set([hash('c')]));
    await expect(accounts.loginFor(user(hash('c')), 'token-secret-c')).rejects.toMatchObject({
      code: ResultCode.ServiceUnavailable,
    });
    expect(log.lines.map((line) => line.msg)).toEqual(['console account not granted']);
    expect(JSON.stringify(log.lines)).not.toContain('token-secret-c');
  });

  it("removes the accounts of a user's ended sessions, and only those", async () => {
    const broker = fakeBroker([
      consoleUsername(hash('d')),
      consoleUsername(hash('e')),
      consoleUsername(hash('f')),
    ]);
    const { accounts } = consoleAccounts(broker, new Set([hash('f')]), { 'staff-1': [hash('d'), hash('e')] });
    await accounts.sessionsEnded('staff-1');
    await accounts.sessionsEnded('staff-2');
    expect([...broker.accounts.keys()]).toEqual([consoleUsername(hash('f'))]);
  });

  it('sweeps console accounts whose session no longer stands, leaving every other account', async () => {
    const broker = fakeBroker([
      consoleUsername(hash('1')),
      consoleUsername(hash('2')),
      'LOCK-7',
      'chirpstack',
      'web-not-a-session',
    ]);
    const { accounts, log } = consoleAccounts(broker, new Set([hash('2')]));
    expect(await accounts.sweep()).toBe(1);
    expect([...broker.accounts.keys()]).toEqual([
      consoleUsername(hash('2')),
      'LOCK-7',
      'chirpstack',
      'web-not-a-session',
    ]);
    expect(await accounts.sweep()).toBe(0);
    expect(log.lines.map((line) => line.obj)).toEqual([{ removed: 1 }]);
  });

  it('signs in with the staff id where the broker asks the server (embedded broker)', async () => {
    expect(await staffBrokerLogins.loginFor({ ...user(hash('9')), staffId: 'staff-9' }, 'tok')).toEqual({
      username: 'staff-9',
    });
    expect(await staffBrokerLogins.boardLoginFor({ tokenHash: hash('8'), stationId: 'S2' }, 'tok')).toEqual({
      username: `board-${hash('8')}`,
    });
  });
});

describe('board accounts', () => {
  const board = (digit: string, stationId = 'S2') => ({ tokenHash: hash(digit), stationId });

  it("grants a display session an account of its own station's alarm topic, its token as password", async () => {
    const broker = fakeBroker();
    const { accounts } = consoleAccounts(broker, new Set(), {}, { boards: new Set([hash('a'), hash('b')]) });
    const login = await accounts.boardLoginFor(board('a'), 'display-a');
    expect(login).toEqual({ username: boardUsername(hash('a')) });
    expect(broker.accounts.get(login.username)).toEqual({
      username: login.username,
      password: 'display-a',
      stationId: 'S2',
      kinds: ['alarm'],
    });
    // Two displays of one link are two sessions: two accounts, each with its own password.
    await accounts.boardLoginFor(board('b'), 'display-b');
    expect(broker.accounts.get(boardUsername(hash('b')))?.password).toBe('display-b');
    expect(broker.accounts.get(login.username)?.password).toBe('display-a');
  });

  it('removes the account again when the link was revoked while it was granted', async () => {
    const broker = fakeBroker();
    const { accounts } = consoleAccounts(broker, new Set());
    await expect(accounts.boardLoginFor(board('c'), 'display-c')).rejects.toMatchObject({
      code: ResultCode.AlarmBoardRevoked,
    });
    expect(broker.accounts.size).toBe(0);
  });

  it("removes a revoked link's accounts, and the sweep those of a revocation no server heard", async () => {
    const boards = new Set([hash('1'), hash('2'), hash('3')]);
    const broker = fakeBroker([consoleUsername(hash('4')), 'board-not-a-session']);
    const { accounts } = consoleAccounts(broker, new Set([hash('4')]), {}, { boards });
    for (const digit of ['1', '2', '3']) await accounts.boardLoginFor(board(digit), `display-${digit}`);
    boards.delete(hash('1'));
    expect(await accounts.boardsRevoked()).toBe(1);
    expect(broker.accounts.has(boardUsername(hash('1')))).toBe(false);
    boards.delete(hash('2'));
    expect(await accounts.sweep()).toBe(1);
    expect([...broker.accounts.keys()].sort()).toEqual(
      [consoleUsername(hash('4')), 'board-not-a-session', boardUsername(hash('3'))].sort(),
    );
  });

  it('answers ServiceUnavailable when the broker cannot be administered, and logs no token', async () => {
    const broker = fakeBroker();
    broker.fail();
    const { accounts, log } = consoleAccounts(broker, new Set(), {}, { boards: new Set([hash('d')]) });
    await expect(accounts.boardLoginFor(board('d'), 'display-secret-d')).rejects.toMatchObject({
      code: ResultCode.ServiceUnavailable,
    });
    expect(log.lines.map((line) => line.msg)).toEqual(['board account not granted']);
    expect(JSON.stringify(log.lines)).not.toContain('display-secret-d');
  });
});
