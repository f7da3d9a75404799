import type { Lang } from '@uiot/contracts';

/** The signed-in user behind a request, resolved from the bearer token alone. */
export interface SessionUser {
  tokenHash: string;
  staffId: string;
  staffName: string;
  isAdmin: boolean;
  permissions: ReadonlySet<string>;
  /**
   * Held at the forced first-sign-in password change (parameter ChangePwdByFirstLogin on, initial password
   * not yet changed): only endpoints marked `allowedBeforePasswordChange` answer.
   */
  mustChangePassword: boolean;
}

/**
 * A control-room board's display session (docs/alarms.md): one display link of one station. It is no
 * staff session and reaches only the endpoints whose access is `alarmBoard`.
 */
export interface BoardViewer {
  tokenHash: string;
  linkId: string;
  name: string;
  stationId: string;
  stationName: string;
}

/** Who the operation log names for a call, when that is not the session's user (the sign-in). */
export interface OpLogActor {
  userId: string | null;
  userName: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** The display session of a call to an `alarmBoard` endpoint (null on every other). */
    alarmBoard: BoardViewer | null;
    /** Set by a handler whose actor the token does not tell; the operation log prefers it to `user`. */
    opLogActor: OpLogActor | null;
    lang: Lang;
    /** Result code of the envelope sent, for the operation log. */
    resultCode: number | undefined;
  }
}
