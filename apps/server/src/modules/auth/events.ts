import type { SessionChange } from './session-cache.ts';

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * Sessions of a user ended here (sign-out, password change, disable): live connections of that user
     * are closed. Published by this instance only; other instances learn of it by `session.changed`.
     */
    'session.revoked': { staffId: string };
    /**
     * A session, its user, the user's permission keys or a feature flag changed (`all` also after a gap in
     * listening). Heard by every instance from the database's own triggers (channel uiot_session_change),
     * so it is cross-instance without being sent by the bus.
     */
    'session.changed': SessionChange;
  }
}
