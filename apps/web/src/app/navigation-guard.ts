import { ALARM_BOARD_PATH } from '@uiot/contracts';
import { LOGIN_PATH, loginPath, NO_MENU_REASON } from '../lib/auth/login-path.ts';

/**
 * Paths open without a session (spec §2 public routes); the control-room board takes its own display
 * session from its link instead.
 */
const PUBLIC_PATHS = new Set([LOGIN_PATH, '/auth-redirect', '/404', '/401', ALARM_BOARD_PATH]);
const PUBLIC_PREFIXES = ['/redirect/'];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname) || PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * The session as the routes see it: none, signed in but held at the forced password change, or ready with
 * the user's menus loaded.
 */
export type SessionStage = 'none' | 'mustChangePassword' | 'ready';

export interface NavigationContext {
  pathname: string;
  search: string;
  stage: SessionStage;
  hasMenus: boolean;
}

/** Spec §4 Navigation: where a navigation must go instead, or null to let it through. */
export function guardNavigation({ pathname, search, stage, hasMenus }: NavigationContext): string | null {
  if (stage !== 'ready') return isPublicPath(pathname) ? null : loginPath(pathname + search);
  if (pathname === LOGIN_PATH) return '/';
  if (!hasMenus && !isPublicPath(pathname)) return `/401?reason=${NO_MENU_REASON}`;
  return null;
}
