/**
 * The state of a dialog or drawer opened from a page: it keeps what it shows while it closes (`hide`), and
 * each opening (`show`) is a fresh one: render it with `key={shown.opening}`.
 */
export interface Shown<T> {
  value: T;
  open: boolean;
  opening: number;
}

let openings = 0;

export function show<T>(value: T): Shown<T> {
  openings += 1;
  return { value, open: true, opening: openings };
}

export const hide = <T>(current: Shown<T> | null): Shown<T> | null =>
  current ? { ...current, open: false } : current;
