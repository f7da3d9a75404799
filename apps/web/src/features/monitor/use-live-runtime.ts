import { useQueryClient } from '@tanstack/react-query';
import { api, type RuntimeChange, type RuntimeRow } from '@uiot/contracts';
import { useCallback, useEffect, useMemo } from 'react';
import { mergeIntoPages } from '../../lib/crud/index.ts';
import {
  afterQuiet,
  atMostEvery,
  PAGE_REFRESH_MAX_WAIT_MS,
  PAGE_REFRESH_QUIET_MS,
  useConsoleEvents,
  useRealtimeResubscribed,
} from '../../lib/realtime/index.ts';
import { serverNow } from '../../lib/server-clock.ts';
import { useBatteryBands } from './battery-bands.ts';
import { mergeDeviceRuntime, mergeRuntimePage } from './runtime-live.ts';

/** The counters are asked for at most this often while events arrive. */
export const SUMMARY_REFRESH_MS = 2_000;

const PAGE_PATH = api.runtime.queryPage.path;
const DEVICE_PATH = api.runtime.getByDeviceId.path;
const SUMMARY_PATH = api.runtime.summary.path;

/**
 * Keeps the runtime data on screen live (spec §4 Realtime): each published change is merged at once into
 * every cached runtime page and device runtime, without asking the server; the counters are asked for
 * again at most every 2 s, a page whose search a change affected after a short quiet time, and everything
 * after the live channel came back (what happened meanwhile was not heard).
 */
export function useLiveRuntime(): void {
  const client = useQueryClient();
  const bands = useBatteryBands();
  const refresh = useMemo(
    () => ({
      summary: atMostEvery(
        SUMMARY_REFRESH_MS,
        () => void client.invalidateQueries({ queryKey: [SUMMARY_PATH] }),
      ),
      pages: afterQuiet(PAGE_REFRESH_QUIET_MS, PAGE_REFRESH_MAX_WAIT_MS, () => {
        void client.invalidateQueries({ queryKey: [PAGE_PATH] });
        void client.invalidateQueries({ queryKey: [DEVICE_PATH] });
      }),
    }),
    [client],
  );
  useEffect(
    () => () => {
      refresh.summary.cancel();
      refresh.pages.cancel();
    },
    [refresh],
  );

  const onChanges = useCallback(
    (changes: RuntimeChange[]) => {
      if (changes.length === 0) return;
      // Offline durations count from a server time: the server's clock, not the browser's.
      const now = new Date(serverNow());
      let refetch = mergeIntoPages<RuntimeRow>(client, PAGE_PATH, (page, query) =>
        mergeRuntimePage(page, query, changes, now, bands),
      );
      for (const cached of client.getQueryCache().findAll({ queryKey: [DEVICE_PATH] })) {
        const row = cached.state.data as RuntimeRow | null | undefined;
        if (row === undefined) continue;
        const deviceId = (cached.queryKey[1] as { deviceId?: string } | null)?.deviceId;
        if (!changes.some((change) => change.deviceId === deviceId)) continue;
        // Null: not registered when asked; a change says it is now.
        if (row === null) refetch = true;
        else client.setQueryData(cached.queryKey, mergeDeviceRuntime(row, changes, now));
      }
      refresh.summary.request();
      if (refetch) refresh.pages.request();
    },
    [client, refresh, bands],
  );
  useConsoleEvents('runtime', onChanges);

  useRealtimeResubscribed(
    useCallback(() => {
      for (const path of [PAGE_PATH, DEVICE_PATH, SUMMARY_PATH]) {
        void client.invalidateQueries({ queryKey: [path] });
      }
    }, [client]),
  );
}
