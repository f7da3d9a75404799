import { useEffect, useState } from 'react';
import { serverNow } from './server-clock.ts';

/** How often a shown duration ("offline for", "open for") counts on. */
export const CLOCK_TICK_MS = 30_000;

/**
 * The time now on the server's clock (server-clock.ts), moving on every `intervalMs` while the component is
 * mounted (a page that shows durations that count on from a server time, such as "offline for" or how long
 * an alarm has been open); the timer ends with the component.
 */
export function useClock(intervalMs = CLOCK_TICK_MS): Date {
  const [now, setNow] = useState(() => new Date(serverNow()));
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date(serverNow())), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
