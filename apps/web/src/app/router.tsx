import { ALARM_BOARD_PATH, MENU_CATALOGUE, type MenuEntry, type UserInfo } from '@uiot/contracts';
import { createBrowserRouter, Navigate, type RouteObject, redirect } from 'react-router';
import { AuthRedirectPage } from '../features/auth/auth-redirect-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { ForbiddenPage } from '../features/errors/forbidden-page.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { cancelAllRequests } from '../lib/request/index.ts';
import { RedirectPage } from './layout/redirect-page.tsx';
import { ShellLayout } from './layout/shell-layout.tsx';
import { resetTags } from './layout/tags-view/tags-store.ts';
import { lazyPage } from './lazy-page.ts';
import { type MenuRouteHandle, UserMenusContext } from './menu/menu-context.ts';
import { menuRouteSpecs, menusOfUser } from './menu/menu-tree.ts';
import { MENU_PAGES } from './menu-pages.ts';
import { guardNavigation, type SessionStage } from './navigation-guard.ts';
import { PageLoading } from './page-loading.tsx';
import { HOME_PATH } from './paths.ts';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

function sessionStage(user: UserInfo | null): SessionStage {
  if (!user) return 'none';
  return user.mustChangePassword ? 'mustChangePassword' : 'ready';
}

/** Routes of the user's catalogue entries: a lazy page each, and groups sent on to their first page. */
function menuRoutes(entries: readonly MenuEntry[]): RouteObject[] {
  return menuRouteSpecs(entries).flatMap(({ path, entry, redirectTo }): RouteObject[] => {
    if (redirectTo) return [{ path, loader: () => redirect(redirectTo) }];
    const page = MENU_PAGES[entry.name];
    if (!page) {
      console.error(`Menu entry ${entry.name} has no page in MENU_PAGES`);
      return [];
    }
    const handle: MenuRouteHandle = { menu: entry };
    return [{ path, lazy: lazyPage(page), handle }];
  });
}

/**
 * The router of one session epoch (spec §4 Navigation): built afresh on sign-in and sign-out from the catalogue
 * entries the user may open, so no route of a previous user survives. Its root loader is the navigation
 * guard; it runs on every navigation and cancels the calls still pending.
 */
export function createAppRouter(user: UserInfo | null): AppRouter {
  const stage = sessionStage(user);
  const entries = stage === 'ready' && user ? menusOfUser(MENU_CATALOGUE, user.menus) : [];
  resetTags(entries);

  const shell: RouteObject[] =
    stage === 'ready'
      ? [
          {
            id: 'shell',
            path: '/',
            element: (
              <UserMenusContext value={entries}>
                <ShellLayout />
              </UserMenusContext>
            ),
            children: [
              { index: true, loader: () => redirect(HOME_PATH), element: null },
              ...menuRoutes(entries),
            ],
          },
        ]
      : [];

  return createBrowserRouter([
    {
      id: 'root',
      element: <RootLayout />,
      hydrateFallbackElement: <PageLoading />,
      errorElement: <RouteError />,
      shouldRevalidate: () => true,
      loader: ({ request }) => {
        cancelAllRequests();
        const url = new URL(request.url);
        const target = guardNavigation({
          pathname: url.pathname,
          search: url.search,
          stage,
          hasMenus: entries.length > 0,
        });
        return target ? redirect(target) : null;
      },
      children: [
        { path: '/login', element: <LoginPage /> },
        { path: '/auth-redirect', element: <AuthRedirectPage /> },
        { path: '/404', element: <NotFoundPage /> },
        { path: '/401', element: <ForbiddenPage /> },
        { path: '/redirect/*', element: <RedirectPage /> },
        {
          path: ALARM_BOARD_PATH,
          lazy: lazyPage(() =>
            import('../features/alarms/alarm-board-page.tsx').then((module) => module.AlarmBoardPage),
          ),
        },
        ...shell,
        // An element, not a loader: the guard's redirect to the login page must win over this one.
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ]);
}
