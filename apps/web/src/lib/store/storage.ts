/**
 * Browser storage that degrades to nothing where storage is unavailable (private mode, tests in Node).
 * Keys are the spec's (§9 session keys) or `uiot.*` for console preferences.
 */
type Area = 'local' | 'session';

function area(kind: Area): Storage | undefined {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readItem(kind: Area, key: string): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(kind: Area, key: string, value: string | null): void {
  try {
    if (value === null) area(kind)?.removeItem(key);
    else area(kind)?.setItem(key, value);
  } catch {
    // Storage full or refused: the preference simply is not remembered.
  }
}

export function readJson<T>(kind: Area, key: string): T | null {
  const text = readItem(kind, key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function writeJson(kind: Area, key: string, value: unknown): void {
  writeItem(kind, key, value === null || value === undefined ? null : JSON.stringify(value));
}
