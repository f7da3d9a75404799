import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { LoginPage } from '../features/auth/login-page.tsx';
import {
  abandonSession,
  currentBrowserPath,
  LOGIN_PATH,
  loginPath,
  restoreSession,
  session,
  takeLandingPath,
  useSession,
} from '../lib/auth/index.ts';
import { loadChunk } from '../lib/chunks/load-chunk.ts';
import { LoadFailure } from '../lib/chunks/load-failure.tsx';
import { loadNamespaces } from '../lib/i18n/i18n.ts';
import { NAMESPACES } from '../lib/i18n/resources.ts';
import { isRequestError } from '../lib/request/index.ts';
import { guardNavigation } from './navigation-guard.ts';
import { PageLoading } from './page-loading.tsx';

let consoleLoading: Promise<typeof import('./console.tsx')> | null = null;

/** The console (antd, the router and every page behind sign-in) with all of its texts, fetched once. */
function loadConsole(): Promise<typeof import('./console.tsx')> {
  consoleLoading ??= loadChunk(async () => {
    const [module] = await Promise.all([import('./console.tsx'), loadNamespaces(NAMESPACES)]);
    return module;
  }).catch((error: unknown) => {
    consoleLoading = null;
    throw error;
  });
  return consoleLoading;
}

const ConsoleApp = lazy(() => loadConsole().then((module) => ({ default: module.ConsoleApp })));

/**
 * Where a visitor without a session lands: the login page, with the way back when another page of the
 * console was asked for (spec §4 Navigation); null for the public pages the console itself shows.
 */
function loginLanding(): string | null {
  const { pathname, search } = window.location;
  if (pathname === LOGIN_PATH) return pathname + search;
  const target = guardNavigation({ pathname, search, stage: 'none', hasMenus: false });
  return target?.startsWith(LOGIN_PATH) ? target : null;
}

/**
 * Spec §4 Navigation, 'token but no menus': a stored token is turned into the user and its menus before any
 * route is built; when that fails the token is reset and the login page opens with the way back.
 *
 * Until someone signs in, the login page is shown on its own, light: the console (antd, the router, the
 * pages, the live channels) is fetched once there is a session to show it for, or for the other public
 * pages. Once shown, the console stays, and shows the login page itself after a sign-out.
 */
export function SessionGate() {
  const { user, token, epoch } = useSession();
  const consoleShown = useRef(false);
  const [restoreEpoch] = useState(() => {
    const state = session.get();
    return state.token && !state.user ? state.epoch : null;
  });

  useEffect(() => {
    if (restoreEpoch === null) return;
    restoreSession().catch((error: unknown) => {
      // An expired session has already been ended by the request layer.
      if (isRequestError(error) && error.isSessionExpired) return;
      abandonSession(loginPath(currentBrowserPath()));
    });
  }, [restoreEpoch]);

  // With a token the console is about to be needed: fetched while the user and the menus are asked for.
  useEffect(() => {
    if (token) loadConsole().catch(() => undefined);
  }, [token]);

  // A sign-in or sign-out says where the browser goes next, before the pages of the new epoch are chosen.
  const landing = takeLandingPath();
  if (landing) window.history.replaceState(null, '', landing);

  if (restoreEpoch !== null && epoch === restoreEpoch) return <PageLoading />;
  if (!consoleShown.current && !user) {
    const login = loginLanding();
    if (login) {
      if (login !== currentBrowserPath()) window.history.replaceState(null, '', login);
      return <LoginPage />;
    }
  }
  consoleShown.current = true;
  return (
    <LoadFailure>
      <Suspense fallback={<PageLoading />}>
        <ConsoleApp epoch={epoch} user={user} />
      </Suspense>
    </LoadFailure>
  );
}
