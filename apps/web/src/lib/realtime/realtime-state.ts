import { createStore } from '../store/store.ts';
import { ConsoleEventHub, reportLater } from './console-event-hub.ts';
import type { RealtimeStatus } from './realtime-status.ts';

/** The state the live channels share with the pages: one channel per signed-in console. */
export const realtimeStatus = createStore<RealtimeStatus>('off');

export const consoleEvents = new ConsoleEventHub();

const resubscribedListeners = new Set<() => void>();

/** Registers a listener of "subscribed again"; returns its removal. */
export function onResubscribed(listener: () => void): () => void {
  resubscribedListeners.add(listener);
  return () => {
    resubscribedListeners.delete(listener);
  };
}

export function announceResubscribed(): void {
  for (const listener of [...resubscribedListeners]) {
    try {
      listener();
    } catch (error) {
      reportLater(error);
    }
  }
}
