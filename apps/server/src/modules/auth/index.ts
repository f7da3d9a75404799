import './events.ts';

export { resetAdminPassword } from './admin-password.ts';
export { authRoutes } from './auth.routes.ts';
export { AuthService } from './auth.service.ts';
export { type AuthServices, createAuthServices } from './auth.services.ts';
export { checkLoginThrottle, recordLoginFailure } from './login-throttle.repository.ts';
export type { ThrottlePolicy } from './login-throttle.ts';
export { SessionService } from './session.service.ts';
export type { SessionChange } from './session-cache.ts';
