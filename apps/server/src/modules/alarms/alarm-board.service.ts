import { randomBytes } from 'node:crypto';
import {
  ALARM_BOARD_CODE_TTL_HOURS,
  ALARM_BOARD_MAX_ROWS,
  ALARM_BOARD_PATH,
  type AlarmBoard,
  type AlarmBoardCode,
  type AlarmBoardLinkForm,
  type AlarmBoardLinkRow,
  type AlarmBoardLinkState,
  type AlarmBoardSession,
  type Lang,
  type Page,
  type PageQuery,
  ResultCode,
  translateValidation,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { BoardViewer, SessionUser } from '../../http/request-context.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ConsoleIdentity } from '../../infra/mqtt/topic-acl.ts';
import { hashToken, newSessionToken } from '../../lib/password-hash.ts';
import { ADDRESS_POLICY, checkLoginThrottle, recordLoginFailure } from '../auth/index.ts';
import {
  allStations,
  boardLinkRevoked,
  insertBoardLink,
  insertBoardSession,
  linkOfCode,
  openAlarmsOf,
  queryBoardLinks,
  replaceBoardCode,
  revokeBoardLink,
  standingBoardSession,
  stationExists,
  touchBoardLink,
  useBoardCode,
} from './alarm-board.repository.ts';
import './events.ts';

const CODE_TTL_MS = ALARM_BOARD_CODE_TTL_HOURS * 3_600_000;
/** A board's last use is written at most this often (it reloads its alarms after each reconnection). */
const USE_RECORD_MS = 60_000;
const BOARD_USERNAME_PREFIX = 'board-';

const TOKEN_HASH = /^[0-9a-f]{64}$/;

/**
 * The broker username of a display session: `board-` and its stored token hash (which tells nothing about
 * the token). One per session, so that an external broker can hold an account per session like the
 * console's (docs/scale-out.md).
 */
export function boardUsername(tokenHash: string): string {
  return `${BOARD_USERNAME_PREFIX}${tokenHash}`;
}

export function isBoardUsername(username: string | undefined): boolean {
  return username?.startsWith(BOARD_USERNAME_PREFIX) === true;
}

/** The token hash of a board's username, or null for any other account. */
export function sessionOfBoardUsername(username: string): string | null {
  if (!isBoardUsername(username)) return null;
  const tokenHash = username.slice(BOARD_USERNAME_PREFIX.length);
  return TOKEN_HASH.test(tokenHash) ? tokenHash : null;
}

/** Wrong codes from one address are throttled like sign-in attempts. */
const throttleKey = (ip: string | null) => `alarmBoard:address:${ip ?? 'unknown'}`;

/**
 * The control-room board (`/warningRecord`, docs/alarms.md): display links made by administrators, their
 * one-time codes (only a hash kept, 24 h, used once), and the display sessions they are exchanged for. A
 * display session is no staff session: it reads its station's open alarms and its alarm topic, nothing
 * else, for as long as its link is not revoked.
 */
export class AlarmBoardService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly now: () => Date = () => new Date(),
  ) {}

  query(
    search: { state?: AlarmBoardLinkState | undefined },
    page: PageQuery,
  ): Promise<Page<AlarmBoardLinkRow>> {
    return queryBoardLinks(this.db, search, page, this.now());
  }

  stations(): Promise<{ id: string; name: string }[]> {
    return allStations(this.db);
  }

  async create(form: AlarmBoardLinkForm, user: SessionUser, lang: Lang): Promise<AlarmBoardCode> {
    if (!(await stationExists(this.db, form.stationId))) {
      throw AppError.invalid([{ path: 'stationId', message: translateValidation('v.unknownStation', lang) }]);
    }
    const id = await insertBoardLink(this.db, {
      stationId: form.stationId,
      name: form.name,
      createdBy: user.staffId,
      createdByName: user.staffName,
    });
    return this.newCode(id);
  }

  /** A fresh one-time code for a link; the code issued before stops working. */
  async newCode(id: string): Promise<AlarmBoardCode> {
    const code = randomBytes(24).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + CODE_TTL_MS);
    if (!(await replaceBoardCode(this.db, id, { hash: hashToken(code), expiresAt }))) {
      throw new AppError(
        (await boardLinkRevoked(this.db, id)) ? ResultCode.AlarmBoardRevoked : ResultCode.NotFound,
      );
    }
    // In the fragment: a browser never sends it, so no server, proxy or Referer sees or logs it.
    return { id, path: `${ALARM_BOARD_PATH}#code=${code}`, expiresAt: expiresAt.toISOString() };
  }

  /** Revokes a link: its code and display sessions end at once, live connections included. */
  async revoke(id: string): Promise<void> {
    if (await revokeBoardLink(this.db, id, this.now())) {
      this.events.publish('alarmBoard.revoked', { linkId: id });
      return;
    }
    if ((await boardLinkRevoked(this.db, id)) === null) throw new AppError(ResultCode.NotFound);
  }

  /**
   * Exchanges a one-time code for a display session. A code is used once (one statement clears it, so of
   * two exchanges at the same moment one wins); a wrong, used or expired code counts against the address.
   */
  async exchange(code: string, ip: string | null): Promise<AlarmBoardSession> {
    const now = this.now();
    const key = throttleKey(ip);
    const verdict = await checkLoginThrottle(this.db, key, now, ADDRESS_POLICY);
    if (!verdict.allowed) {
      throw new AppError(ResultCode.TooManyRequests, {
        params: { seconds: Math.ceil(verdict.retryAfterMs / 1000) },
      });
    }
    const codeHash = hashToken(code);
    const used = await useBoardCode(this.db, codeHash, { at: now, ip });
    if (!used) {
      const link = await linkOfCode(this.db, codeHash);
      await recordLoginFailure(this.db, key, now, ADDRESS_POLICY);
      throw new AppError(link?.revokedAt ? ResultCode.AlarmBoardRevoked : ResultCode.AlarmBoardCodeInvalid);
    }
    const { token, tokenHash } = newSessionToken();
    await insertBoardSession(this.db, { tokenHash, linkId: used.id, ipAddr: ip });
    const session = await standingBoardSession(this.db, tokenHash);
    // Revoked between the two statements: the session just made is of no use.
    if (!session) throw new AppError(ResultCode.AlarmBoardRevoked);
    return { token, name: session.name, stationId: session.stationId, stationName: session.stationName };
  }

  /** The display session behind a token, or null when it is unknown or its link revoked. */
  async resolve(token: string): Promise<BoardViewer | null> {
    if (!token || token.length > 256) return null;
    return this.viewerOf(hashToken(token));
  }

  private async viewerOf(tokenHash: string): Promise<BoardViewer | null> {
    const session = await standingBoardSession(this.db, tokenHash);
    return session ?? null;
  }

  /** Whether the display session of this token hash still stands (its link not revoked). */
  async stands(tokenHash: string): Promise<boolean> {
    return (await this.viewerOf(tokenHash)) !== null;
  }

  /** The station's open alarms; records the link's use. */
  async board(viewer: BoardViewer, ip: string | null): Promise<AlarmBoard> {
    await touchBoardLink(this.db, viewer.linkId, { at: this.now(), ip }, USE_RECORD_MS);
    return {
      name: viewer.name,
      stationId: viewer.stationId,
      stationName: viewer.stationName,
      rows: await openAlarmsOf(this.db, viewer.stationId, ALARM_BOARD_MAX_ROWS),
    };
  }

  /**
   * Who a board is on the embedded broker: its display token as the password, its session's username; it
   * may read the alarm topic of its station and nothing else.
   */
  async brokerIdentity(
    username: string | undefined,
    token: string | undefined,
  ): Promise<ConsoleIdentity | null> {
    if (!username || !token) return null;
    return this.identityOf(username, await this.resolve(token));
  }

  /** The broker's recheck of a connected board (after its link was revoked, or sessions changed). */
  async recheck(username: string, tokenHash: string): Promise<ConsoleIdentity | null> {
    return this.identityOf(username, await this.viewerOf(tokenHash));
  }

  private identityOf(username: string, viewer: BoardViewer | null): ConsoleIdentity | null {
    if (!viewer || boardUsername(viewer.tokenHash) !== username) return null;
    return { kind: 'console', stationId: viewer.stationId, session: viewer.tokenHash, kinds: ['alarm'] };
  }
}
