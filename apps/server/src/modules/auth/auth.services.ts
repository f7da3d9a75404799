import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ParamService } from '../params/index.ts';
import { AuthService } from './auth.service.ts';
import { type SessionPolicy, SessionService } from './session.service.ts';
import './events.ts';

/** Sign-in and sessions. */
export interface AuthServices {
  sessions: SessionService;
  auth: AuthService;
}

export function createAuthServices(
  db: Db,
  options: { policy: SessionPolicy; params: ParamService; events: EventBus; now?: (() => Date) | undefined },
): AuthServices {
  const { params, events } = options;
  const sessions = new SessionService(db, options.policy, undefined, undefined, events);
  // The feature flags are kept in memory while the session service hears the database's change notices
  // (the auth module's subscription forgets them when a flag changes).
  params.followChanges(sessions);
  return { sessions, auth: new AuthService(db, sessions, params, options.now) };
}
