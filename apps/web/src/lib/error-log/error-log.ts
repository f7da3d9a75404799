import { createStore, useStore } from '../store/store.ts';

/** Errors of this page session, listed by the navbar's error-log button (spec §2). */
export interface ErrorLogEntry {
  id: number;
  time: number;
  source: 'request' | 'script';
  title: string;
  text: string;
  detail?: string;
}

const MAX_ENTRIES = 200;
let nextId = 1;

export const errorLog = createStore<readonly ErrorLogEntry[]>([]);

export function recordError(entry: Omit<ErrorLogEntry, 'id' | 'time'>): void {
  const record: ErrorLogEntry = { ...entry, id: nextId++, time: Date.now() };
  errorLog.set((entries) => [record, ...entries].slice(0, MAX_ENTRIES));
}

export function clearErrorLog(): void {
  errorLog.set([]);
}

export function useErrorLog(): readonly ErrorLogEntry[] {
  return useStore(errorLog);
}
