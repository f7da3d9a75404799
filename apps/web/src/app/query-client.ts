import { QueryClient } from '@tanstack/react-query';
import { isRequestError } from '../lib/request/index.ts';

/** A call cancelled by a navigation is made again once if its query is still shown (e.g. same page). */
const MAX_RETRIES_AFTER_CANCEL = 1;

/**
 * Server state. The request layer shows failures itself, so failed queries are not retried (a retry would
 * show the same error twice) and nothing refetches on focus. Every navigation cancels pending calls
 * (spec §4); a query whose page is still mounted asks again, one whose page is gone is dropped by TanStack
 * Query itself when its last observer leaves.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) =>
        isRequestError(error) &&
        error.cancelReason === 'navigation' &&
        failureCount < MAX_RETRIES_AFTER_CANCEL,
      retryDelay: 0,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});
