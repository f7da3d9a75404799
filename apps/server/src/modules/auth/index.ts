import { defineModule } from '../../module.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthServices } from './auth.services.ts';
import './events.ts';

export { resetAdminPassword } from './admin-password.ts';
export { authRoutes } from './auth.routes.ts';
export { AuthService } from './auth.service.ts';
export { type AuthServices, createAuthServices } from './auth.services.ts';
export { checkLoginThrottle, recordLoginFailure } from './login-throttle.repository.ts';
export { ADDRESS_POLICY, type ThrottlePolicy } from './login-throttle.ts';
export { SessionService } from './session.service.ts';
export type { SessionChange } from './session-cache.ts';

/** Sign-in and sessions. */
export const authModule = defineModule({
  name: 'auth',
  needs: ['params'],
  build: ({ db, config, options, events }, { params }) =>
    createAuthServices(db, {
      policy: { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds },
      params,
      events,
      now: options.now,
    }),
  subscribe: (events, { params }) => {
    // A change of a feature flag is announced as a change of `all` sessions (migration 0014_feature_flag_changes).
    events.subscribe('session.changed', 'feature flags', (change) => {
      if (change.scope === 'all') params.flagsChanged();
    });
  },
  routes: (services) => authRoutes(services),
});
