/** A dialog or drawer that keeps what it shows while it closes; each opening is a fresh one (keyed). */
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
