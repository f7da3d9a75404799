import type { QueryClient } from '@tanstack/react-query';
import { api } from '@uiot/contracts';
import { useCallback } from 'react';
import { useConsoleEvents, useRealtimeResubscribed } from '../../lib/realtime/index.ts';

/** Everything the console shows of alarms: the records (page and tab), the bell's count, Home's today. */
const ALARM_QUERIES = [api.deviceAlarm.queryPage, api.deviceAlarm.openCount, api.home.getTodayWarn];

/** Asks again for what shows alarms, after an alarm changed. */
export function refreshAlarms(queryClient: QueryClient): void {
  for (const endpoint of ALARM_QUERIES) void queryClient.invalidateQueries({ queryKey: [endpoint.path] });
}

/**
 * Follows the console topic's alarm changes (kind `alarm`, sent only to who may read alarms): a raised,
 * acknowledged, cleared or reset alarm refreshes what shows alarms, and so does a reconnection, which may
 * have missed some.
 */
export function useLiveAlarms(queryClient: QueryClient): void {
  const refresh = useCallback(() => refreshAlarms(queryClient), [queryClient]);
  useConsoleEvents('alarm', refresh);
  useRealtimeResubscribed(refresh);
}
