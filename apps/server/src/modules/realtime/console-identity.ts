import type { SessionUser } from '../../http/request-context.ts';
import type { BrokerIdentity } from './topic-acl.ts';

/**
 * Who a browser is on the broker's WebSocket listener: it signs in with its staff id as the username and its
 * session token as the password. The token must resolve to that staff member, and a user held at the forced
 * password change gets no live data until the change.
 */
export function consoleIdentity(
  user: Pick<SessionUser, 'staffId' | 'mustChangePassword'> | null,
  username: string | undefined,
  stationId: string,
): BrokerIdentity | null {
  if (!user || user.staffId !== username || user.mustChangePassword) return null;
  return { kind: 'console', stationId };
}
