import { readableConsoleKinds } from '@uiot/contracts';
import type { SessionUser } from '../../http/request-context.ts';
import type { ConsoleIdentity } from './topic-acl.ts';

/** What a browser's identity on the broker is made of: its session's user. */
export type ConsoleSessionUser = Pick<
  SessionUser,
  'staffId' | 'tokenHash' | 'permissions' | 'mustChangePassword'
>;

/**
 * Who a browser is on the broker's WebSocket listener: it signs in with its staff id as the username and its
 * session token as the password. The token must resolve to that staff member, and a user held at the forced
 * password change gets no live data until the change. It receives the kinds of console topics its
 * permissions read (`CONSOLE_EVENT_PERMISSIONS`), none when it holds none of their keys.
 */
export function consoleIdentity(
  user: ConsoleSessionUser | null,
  username: string | undefined,
  stationId: string,
): ConsoleIdentity | null {
  if (!user || user.staffId !== username || user.mustChangePassword) return null;
  return {
    kind: 'console',
    stationId,
    session: user.tokenHash,
    kinds: readableConsoleKinds(user.permissions),
  };
}
