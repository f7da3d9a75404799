import { useEffect, useState } from 'react';

/** How often a shown duration ("offline for", "open for") counts on. */
export const CLOCK_TICK_MS = 30_000;

/**
 * The time now, moving on every `intervalMs` while the component is mounted (a page that shows durations
 * that count on, such as "offline for" or how long an alarm has been open); the timer ends with the component.
 */
export function useClock(intervalMs = CLOCK_TICK_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
