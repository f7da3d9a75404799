import { describe, expect, it } from 'vitest';
import { guardNavigation, type NavigationContext } from './navigation-guard.ts';

const at = (path: string, rest: Partial<NavigationContext> = {}): NavigationContext => {
  const url = new URL(path, 'http://console');
  return { pathname: url.pathname, search: url.search, stage: 'ready', hasMenus: true, ...rest };
};

describe('guardNavigation', () => {
  it('lets public paths through without a session', () => {
    for (const path of ['/login', '/auth-redirect', '/404', '/401', '/redirect/home']) {
      expect(guardNavigation(at(path, { stage: 'none' }))).toBeNull();
    }
  });

  it('sends other paths to the login page with the way back', () => {
    expect(guardNavigation(at('/device/unit?page=2', { stage: 'none' }))).toBe(
      `/login?redirect=${encodeURIComponent('/device/unit?page=2')}`,
    );
    expect(guardNavigation(at('/', { stage: 'none' }))).toBe('/login');
  });

  it('holds a user who must change the password on the public pages', () => {
    expect(guardNavigation(at('/login?redirect=%2Fhome', { stage: 'mustChangePassword' }))).toBeNull();
    expect(guardNavigation(at('/home', { stage: 'mustChangePassword' }))).toBe('/login?redirect=%2Fhome');
  });

  it('blocks the login page once signed in', () => {
    expect(guardNavigation(at('/login?redirect=%2Fhome'))).toBe('/');
  });

  it('shows the no-menu page to a user without menus', () => {
    expect(guardNavigation(at('/home', { hasMenus: false }))).toBe('/401?reason=no-menu');
    expect(guardNavigation(at('/401?reason=no-menu', { hasMenus: false }))).toBeNull();
  });

  it('lets a signed-in user go anywhere else (unknown paths end at /404 through the routes)', () => {
    expect(guardNavigation(at('/home'))).toBeNull();
    expect(guardNavigation(at('/nowhere'))).toBeNull();
  });
});
