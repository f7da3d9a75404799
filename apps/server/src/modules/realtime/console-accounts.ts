import { type BrokerLogin, ResultCode } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import type { ConsoleBrokerAccess } from '../iot/broker-access/dynsec.ts';

/** How a browser signs in to the broker's WebSocket listener; the password is always its session token. */
export interface ConsoleBrokerLogins {
  loginFor(user: Pick<SessionUser, 'staffId' | 'tokenHash'>, token: string): Promise<BrokerLogin>;
}

/**
 * The embedded broker asks the server about every browser (brokerAuthorizer), and so must an external broker
 * whose accounts the server does not keep (MQTT_DEVICE_AUTH=broker, docs/scale-out.md): the username is the
 * staff id.
 */
export const staffBrokerLogins: ConsoleBrokerLogins = {
  loginFor: async (user) => ({ username: user.staffId }),
};

const CONSOLE_USERNAME_PREFIX = 'web-';
const TOKEN_HASH = /^[0-9a-f]{64}$/;

/** The broker username of a session: its stored token hash, which tells nothing about the token. */
export function consoleUsername(tokenHash: string): string {
  return `${CONSOLE_USERNAME_PREFIX}${tokenHash}`;
}

/** The token hash of a console account's username, or null for any other account. */
export function sessionOfConsoleUsername(username: string): string | null {
  if (!username.startsWith(CONSOLE_USERNAME_PREFIX)) return null;
  const tokenHash = username.slice(CONSOLE_USERNAME_PREFIX.length);
  return TOKEN_HASH.test(tokenHash) ? tokenHash : null;
}

export interface ConsoleAccountsDeps {
  access: ConsoleBrokerAccess;
  stationId: string;
  /** Whether the session of this token hash still stands (SessionService.stands). */
  sessionStands(tokenHash: string): Promise<boolean>;
  /** Token hashes of this user's sessions that have ended but could still have an account. */
  endedSessionsOf(staffId: string): Promise<string[]>;
  logger: ModuleLogger;
}

/**
 * Console accounts on an external Mosquitto (scale-out profile, docs/scale-out.md): one broker account per
 * session, `web-{tokenHash}` with the session token as password, reading its station's console topics. It is
 * created when the console asks for its login, and removed (which disconnects it) when the session ends:
 * at once on sign-out, password change or disable, and by a periodic sweep after an expiry.
 */
export class ConsoleAccounts implements ConsoleBrokerLogins {
  constructor(private readonly deps: ConsoleAccountsDeps) {}

  async loginFor(user: Pick<SessionUser, 'staffId' | 'tokenHash'>, token: string): Promise<BrokerLogin> {
    const username = consoleUsername(user.tokenHash);
    await this.onBroker('console account not granted', () =>
      this.deps.access.grantConsole({ username, password: token, stationId: this.deps.stationId }),
    );
    // A sign-out between the guard's check and the grant finds no account to remove: this removes it.
    if (!(await this.deps.sessionStands(user.tokenHash))) {
      await this.onBroker('console account not revoked', () => this.deps.access.revokeConsoles([username]));
      throw new AppError(ResultCode.SessionExpired);
    }
    return { username };
  }

  /** Removes the accounts of this user's ended sessions (SessionService.onRevoked). */
  async sessionsEnded(staffId: string): Promise<void> {
    const ended = await this.deps.endedSessionsOf(staffId);
    if (ended.length === 0) return;
    await this.deps.access.revokeConsoles(ended.map(consoleUsername));
  }

  /**
   * Removes every console account whose session no longer stands (ended by an expiry, or while no server
   * listened). Harmless when several instances sweep at once: removing a removed account is skipped.
   */
  async sweep(): Promise<number> {
    const ended: string[] = [];
    for (const username of await this.deps.access.listClients()) {
      const tokenHash = sessionOfConsoleUsername(username);
      if (tokenHash && !(await this.deps.sessionStands(tokenHash))) ended.push(username);
    }
    if (ended.length > 0) {
      await this.deps.access.revokeConsoles(ended);
      this.deps.logger.info({ removed: ended.length }, 'console accounts of ended sessions removed');
    }
    return ended.length;
  }

  /** A broker that cannot be administered right now makes live data unavailable, not the server fail. */
  private async onBroker(message: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      this.deps.logger.error({ error: (error as Error).message }, message);
      throw new AppError(ResultCode.ServiceUnavailable);
    }
  }
}
