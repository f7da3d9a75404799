import type { UserInfo } from '@uiot/contracts';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import {
  abandonSession,
  currentBrowserPath,
  loginPath,
  restoreSession,
  session,
  takeLandingPath,
  useSession,
} from '../lib/auth/index.ts';
import { useLiveChannels } from '../lib/realtime/index.ts';
import { isRequestError } from '../lib/request/index.ts';
import { PageLoading } from './page-loading.tsx';
import { queryClient } from './query-client.ts';
import { type AppRouter, createAppRouter } from './router.tsx';

let current: { epoch: number; router: AppRouter } | null = null;

/**
 * The router of a session epoch, built once per epoch (render may run twice) at the landing the sign-in or
 * sign-out asked for; the previous epoch's router is disposed, and so is the previous user's server state.
 */
function routerOfEpoch(epoch: number, user: UserInfo | null): AppRouter {
  if (current?.epoch === epoch) return current.router;
  current?.router.dispose();
  const landing = takeLandingPath();
  if (landing) window.history.replaceState(null, '', landing);
  queryClient.clear();
  current = { epoch, router: createAppRouter(user) };
  return current.router;
}

/**
 * Spec §4 Navigation, 'token but no menus': a stored token is turned into the user and its menus before any
 * route is built; when that fails the token is reset and the login page opens with the way back.
 */
export function SessionGate() {
  const { user, epoch } = useSession();
  // Here, not in the shell: the channels live exactly while a user is signed in, whatever page is open.
  useLiveChannels();
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

  if (restoreEpoch !== null && epoch === restoreEpoch) return <PageLoading />;
  // Keyed by epoch: the previous session's pages unmount instead of re-rendering against the cleared cache.
  return <RouterProvider key={epoch} router={routerOfEpoch(epoch, user)} />;
}
