import { type BrokerLogin, type ConsoleEventKind, ResultCode, readableConsoleKinds } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import type { BoardViewer, SessionUser } from '../../http/request-context.ts';
import type { ConsoleBrokerAccess, ConsoleReading } from '../../infra/mqtt/dynsec.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import { boardUsername, sessionOfBoardUsername } from '../alarms/index.ts';
import type { SessionChange } from '../auth/index.ts';

/** The signed-in user a console's broker sign-in is for. */
export type ConsoleLoginUser = Pick<SessionUser, 'staffId' | 'tokenHash' | 'permissions'>;

/** The display session a control-room board's broker sign-in is for. */
export type BoardLoginViewer = Pick<BoardViewer, 'tokenHash' | 'stationId'>;

/**
 * How a browser signs in to the broker's WebSocket listener; the password is always its session token (a
 * staff session's, or a control-room board's display session's).
 */
export interface ConsoleBrokerLogins {
  loginFor(user: ConsoleLoginUser, token: string): Promise<BrokerLogin>;
  boardLoginFor(viewer: BoardLoginViewer, token: string): Promise<BrokerLogin>;
}

/**
 * The embedded broker asks the server about every browser (brokerAuthorizer), and so must an external broker
 * whose accounts the server does not keep (MQTT_DEVICE_AUTH=broker, docs/scale-out.md): the username is the
 * staff id.
 */
export const staffBrokerLogins: ConsoleBrokerLogins = {
  loginFor: async (user) => ({ username: user.staffId }),
  boardLoginFor: async (viewer) => ({ username: boardUsername(viewer.tokenHash) }),
};

const CONSOLE_USERNAME_PREFIX = 'web-';
/** A board reads its station's alarms and nothing else. */
const BOARD_KINDS: readonly ConsoleEventKind[] = ['alarm'];
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
  /**
   * The permission keys of a session now, or null when it no longer stands (SessionService.userOf: read
   * without counting as a use).
   */
  permissionsOf(tokenHash: string): Promise<ReadonlySet<string> | null>;
  /** Token hashes of this user's sessions that have ended but could still have an account. */
  endedSessionsOf(staffId: string): Promise<string[]>;
  /** Token hashes of this user's sessions that have not been revoked nor reached their absolute expiry. */
  openSessionsOf(staffId: string): Promise<string[]>;
  /** Whether the display session of this token hash still stands (its link not revoked). */
  boardStands(tokenHash: string): Promise<boolean>;
  logger: ModuleLogger;
}

function sameKinds(a: readonly ConsoleEventKind[], b: readonly ConsoleEventKind[]): boolean {
  return a.length === b.length && a.every((kind) => b.includes(kind));
}

/**
 * Console accounts on an external Mosquitto (scale-out profile, docs/scale-out.md): one broker account per
 * session, `web-{tokenHash}` with the session token as password, reading the kinds of its station's console
 * topics that the session's permissions read. It is created when the console asks for its login, given
 * other kinds when the session's permissions change (every instance hears the change; the broker account
 * changes once), and removed (which disconnects it) when the session ends: at once on sign-out, password
 * change or disable, and by a periodic sweep after an expiry.
 */
export class ConsoleAccounts implements ConsoleBrokerLogins {
  /** Changes heard and not yet applied: applied one run at a time, the ones heard meanwhile together. */
  private pending: { all: boolean; staff: Set<string> } = { all: false, staff: new Set() };
  private running: Promise<void> | null = null;

  constructor(private readonly deps: ConsoleAccountsDeps) {}

  async loginFor(user: ConsoleLoginUser, token: string): Promise<BrokerLogin> {
    const username = consoleUsername(user.tokenHash);
    const kinds = readableConsoleKinds(user.permissions);
    await this.onBroker('console account not granted', () =>
      this.deps.access.grantConsole({ username, password: token, stationId: this.deps.stationId, kinds }),
    );
    // A sign-out between the guard's check and the grant finds no account to remove: this removes it.
    if (!(await this.deps.sessionStands(user.tokenHash))) {
      await this.onBroker('console account not revoked', () => this.deps.access.revokeConsoles([username]));
      throw new AppError(ResultCode.SessionExpired);
    }
    // So does a change of permissions: heard before the account existed, it found nothing to change.
    const now = await this.readingOf(user.tokenHash);
    if (now && !sameKinds(now.kinds, kinds)) {
      await this.onBroker('console account not updated', async () => {
        await this.deps.access.updateConsoles([now]);
      });
    }
    return { username };
  }

  async boardLoginFor(viewer: BoardLoginViewer, token: string): Promise<BrokerLogin> {
    const username = boardUsername(viewer.tokenHash);
    await this.onBroker('board account not granted', () =>
      this.deps.access.grantConsole({
        username,
        password: token,
        stationId: viewer.stationId,
        kinds: BOARD_KINDS,
      }),
    );
    // A revocation between the guard's check and the grant found no account to remove: this removes it.
    if (!(await this.deps.boardStands(viewer.tokenHash))) {
      await this.onBroker('board account not revoked', () => this.deps.access.revokeConsoles([username]));
      throw new AppError(ResultCode.AlarmBoardRevoked, { httpStatus: 401 });
    }
    return { username };
  }

  /**
   * A display link was revoked (the `alarmBoard.revoked` event): removes the board accounts whose session
   * no longer stands. Returns how many were removed.
   */
  async boardsRevoked(): Promise<number> {
    const ended = await this.endedBoards(await this.deps.access.listClients());
    if (ended.length > 0) await this.deps.access.revokeConsoles(ended);
    return ended.length;
  }

  /** Of these usernames, the board accounts whose display session no longer stands. */
  private async endedBoards(usernames: readonly string[]): Promise<string[]> {
    const ended: string[] = [];
    for (const username of usernames) {
      const tokenHash = sessionOfBoardUsername(username);
      if (tokenHash && !(await this.deps.boardStands(tokenHash))) ended.push(username);
    }
    return ended;
  }

  /**
   * Sessions changed (SessionService.onChange): the accounts of a user whose permissions may have changed,
   * or of everyone, get the kinds their sessions read now. Resolves once applied; never rejects.
   */
  sessionsChanged(change: SessionChange): Promise<void> {
    if (change.scope === 'all') this.pending.all = true;
    else if (change.scope === 'staff') this.pending.staff.add(change.staffId);
    // A single session's change is an end (sign-out, expiry): `sessionsEnded` and the sweep remove those.
    else return this.running ?? Promise.resolve();
    this.running ??= this.applyPending();
    return this.running;
  }

  private async applyPending(): Promise<void> {
    try {
      while (this.pending.all || this.pending.staff.size > 0) {
        const { all, staff } = this.pending;
        this.pending = { all: false, staff: new Set() };
        try {
          if (all) await this.sweep();
          else {
            const sessions = (await Promise.all([...staff].map((id) => this.deps.openSessionsOf(id)))).flat();
            await this.update(sessions);
          }
        } catch (error) {
          this.deps.logger.error(
            { error: errorMessage(error) },
            'console accounts not brought in step with permissions',
          );
        }
      }
    } finally {
      this.running = null;
    }
  }

  /** What the account of a session reads now, or null when the session no longer stands. */
  private async readingOf(tokenHash: string): Promise<ConsoleReading | null> {
    const permissions = await this.deps.permissionsOf(tokenHash);
    if (!permissions) return null;
    return {
      username: consoleUsername(tokenHash),
      stationId: this.deps.stationId,
      kinds: readableConsoleKinds(permissions),
    };
  }

  /** Gives the accounts of these standing sessions the kinds they read now; returns how many changed. */
  private async update(tokenHashes: readonly string[]): Promise<number> {
    const readings: ConsoleReading[] = [];
    for (const tokenHash of tokenHashes) {
      const reading = await this.readingOf(tokenHash);
      if (reading) readings.push(reading);
    }
    const changed = readings.length > 0 ? await this.deps.access.updateConsoles(readings) : 0;
    if (changed > 0) this.deps.logger.info({ changed }, 'console accounts given the kinds they read now');
    return changed;
  }

  /** Removes the accounts of this user's ended sessions (SessionService.onRevoked). */
  async sessionsEnded(staffId: string): Promise<void> {
    const ended = await this.deps.endedSessionsOf(staffId);
    if (ended.length === 0) return;
    await this.deps.access.revokeConsoles(ended.map(consoleUsername));
  }

  /**
   * Removes every console account whose session no longer stands (ended by an expiry, or while no server
   * listened), and every board account whose link was revoked while no server listened; gives the others the kinds their sessions read now (a change missed while no server
   * listened, or an account of an older version). Harmless when several instances sweep at once: removing
   * a removed account is skipped, an account already in step is left alone. Returns how many were removed.
   */
  async sweep(): Promise<number> {
    const usernames = await this.deps.access.listClients();
    const ended = await this.endedBoards(usernames);
    const standing: string[] = [];
    for (const username of usernames) {
      const tokenHash = sessionOfConsoleUsername(username);
      if (!tokenHash) continue;
      if (await this.deps.sessionStands(tokenHash)) standing.push(tokenHash);
      else ended.push(username);
    }
    if (ended.length > 0) {
      await this.deps.access.revokeConsoles(ended);
      this.deps.logger.info({ removed: ended.length }, 'console accounts of ended sessions removed');
    }
    await this.update(standing);
    return ended.length;
  }

  /** A broker that cannot be administered right now makes live data unavailable, not the server fail. */
  private async onBroker(message: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      this.deps.logger.error({ error: errorMessage(error) }, message);
      throw new AppError(ResultCode.ServiceUnavailable);
    }
  }
}
