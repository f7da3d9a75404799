export const LOGIN_PATH = '/login';

/** `/login?redirect=<path and query>`: where to come back after signing in (spec §4 Navigation). */
export function loginPath(returnTo: string): string {
  if (!returnTo || returnTo === '/') return LOGIN_PATH;
  if (returnTo === LOGIN_PATH || returnTo.startsWith(`${LOGIN_PATH}?`)) return returnTo;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(returnTo)}`;
}

/** The redirect target of the login page; only paths of this console are followed. */
export function redirectTarget(search: string): string {
  const target = new URLSearchParams(search).get('redirect');
  if (!target?.startsWith('/') || target.startsWith('//')) return '/';
  return target;
}

export function currentBrowserPath(): string {
  if (typeof window === 'undefined') return '/';
  return window.location.pathname + window.location.search;
}

/** `/401?reason=no-menu`: the signed-in user has no operable menu (spec §6). */
export const NO_MENU_REASON = 'no-menu';
