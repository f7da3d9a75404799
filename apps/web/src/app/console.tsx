import type { UserInfo } from '@uiot/contracts';
import { RouterProvider } from 'react-router';
import { useLiveChannels } from '../lib/realtime/index.ts';
import { AppProviders } from './providers.tsx';
import { queryClient } from './query-client.ts';
import { type AppRouter, createAppRouter } from './router.tsx';

let current: { epoch: number; router: AppRouter } | null = null;

/**
 * The router of a session epoch, built once per epoch (render may run twice) at the browser's location;
 * the previous epoch's router is disposed, and so is the previous user's server state.
 */
function routerOfEpoch(epoch: number, user: UserInfo | null): AppRouter {
  if (current?.epoch === epoch) return current.router;
  current?.router.dispose();
  queryClient.clear();
  current = { epoch, router: createAppRouter(user) };
  return current.router;
}

/** The console: antd, server state, the routes of the session's epoch, and the live channels. */
export function ConsoleApp({ epoch, user }: { epoch: number; user: UserInfo | null }) {
  // Here: the channels live exactly while a user is signed in, whatever page is open.
  useLiveChannels();
  return (
    <AppProviders>
      {/* Keyed by epoch: the previous session's pages unmount instead of re-rendering against the cleared cache. */}
      <RouterProvider key={epoch} router={routerOfEpoch(epoch, user)} />
    </AppProviders>
  );
}
