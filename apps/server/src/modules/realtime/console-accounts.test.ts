import { ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import type { ConsoleBrokerAccess, ConsoleBrokerAccount } from '../iot/broker-access/dynsec.ts';
import {
  ConsoleAccounts,
  consoleUsername,
  sessionOfConsoleUsername,
  staffBrokerLogins,
} from './console-accounts.ts';
import { recordingLogger } from './test-support.ts';

const hash = (digit: string) => digit.repeat(64);

/** A broker that keeps its accounts in a map. */
function fakeBroker(initial: string[] = []) {
  const accounts = new Map<string, ConsoleBrokerAccount | null>(initial.map((name) => [name, null]));
  let failing = false;
  const access: ConsoleBrokerAccess = {
    async grantConsole(account) {
      if (failing) throw new Error('dynamic security plugin did not answer');
      if (!accounts.has(account.username)) accounts.set(account.username, account);
    },
    async revokeConsoles(usernames) {
      for (const username of usernames) accounts.delete(username);
    },
    async listClients() {
      return [...accounts.keys()];
    },
  };
  return { access, accounts, fail: () => (failing = true) };
}

function consoleAccounts(
  broker: ReturnType<typeof fakeBroker>,
  standing: Set<string>,
  ended: Record<string, string[]> = {},
) {
  const log = recordingLogger();
  const accounts = new ConsoleAccounts({
    access: broker.access,
    stationId: 'S1',
    sessionStands: async (tokenHash) => standing.has(tokenHash),
    endedSessionsOf: async (staffId) => ended[staffId] ?? [],
    logger: log.logger,
  });
  return { accounts, log };
}

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
    const login = await accounts.loginFor({ staffId: 'staff-1', tokenHash: hash('a') }, 'token-a');
    expect(login).toEqual({ username: `web-${hash('a')}` });
    expect(broker.accounts.get(login.username)).toEqual({
      username: login.username,
      password: 'token-a',
      stationId: 'S1',
    });
  });

  it('removes the account again when the session ended while it was granted', async () => {
    const broker = fakeBroker();
    const { accounts } = consoleAccounts(broker, new Set());
    await expect(
      accounts.loginFor({ staffId: 'staff-1', tokenHash: hash('b') }, 'token-b'),
    ).rejects.toMatchObject({ code: ResultCode.SessionExpired });
    expect(broker.accounts.size).toBe(0);
  });

  it('answers ServiceUnavailable when the broker cannot be administered, and logs no token', async () => {
    const broker = fakeBroker();
    broker.fail();
    const { accounts, log } = consoleAccounts(broker, new Set([hash('c')]));
    await expect(
      accounts.loginFor({ staffId: 'staff-1', tokenHash: hash('c') }, 'token-secret-c'),
    ).rejects.toMatchObject({ code: ResultCode.ServiceUnavailable });
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
    expect(await staffBrokerLogins.loginFor({ staffId: 'staff-9', tokenHash: hash('9') }, 'tok')).toEqual({
      username: 'staff-9',
    });
  });
});
