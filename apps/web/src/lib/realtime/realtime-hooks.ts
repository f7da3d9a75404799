import { useEffect, useEffectEvent } from 'react';
import { useSession } from '../auth/session.ts';
import { getRuntimeConfig } from '../runtime-config/runtime-config.ts';
import { useStore } from '../store/store.ts';
import type { ChangesOf, ConsoleChangeKind } from './console-event-hub.ts';
import { channelIdentity, startLiveChannels } from './live-channels.ts';
import { consoleEvents, onResubscribed, realtimeStatus } from './realtime-state.ts';
import type { RealtimeStatus } from './realtime-status.ts';

/** Calls `handler` with each change of that kind published for the signed-in user's station. */
export function useConsoleEvents<K extends ConsoleChangeKind>(
  kind: K,
  handler: (changes: ChangesOf<K>) => void,
): void {
  const onChanges = useEffectEvent(handler);
  useEffect(() => consoleEvents.on(kind, (changes) => onChanges(changes)), [kind]);
}

/** Status of the MQTT channel (re-renders on change). */
export function useRealtimeStatus(): RealtimeStatus {
  return useStore(realtimeStatus);
}

/**
 * Calls `handler` each time the channel (re)subscribed after having been down: pages refetch then. The first
 * subscription after sign-in counts too: what was published before it was in place has been missed.
 */
export function useRealtimeResubscribed(handler: () => void): void {
  const onResubscribe = useEffectEvent(handler);
  useEffect(() => onResubscribed(() => onResubscribe()), []);
}

/**
 * Runs the live channels while a user is signed in: they open after sign-in (and after the forced password
 * change), close on sign-out, and open again when the token changes.
 */
export function useLiveChannels(): void {
  const identity = channelIdentity(useSession());
  const token = identity?.token;
  const staffId = identity?.staffId;
  const stationId = identity?.stationId;
  useEffect(() => {
    if (!token || !staffId || !stationId) return;
    return startLiveChannels({ token, staffId, stationId }, getRuntimeConfig(), window.location);
  }, [token, staffId, stationId]);
}
