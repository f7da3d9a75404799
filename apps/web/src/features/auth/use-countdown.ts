import { useEffect, useState } from 'react';

/** Seconds left until a deadline, ticking every second; `start(seconds)` sets a new deadline. */
export function useCountdown(): { seconds: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);

  return {
    seconds: Math.max(0, Math.ceil((until - now) / 1000)),
    start: (seconds) => {
      const current = Date.now();
      setNow(current);
      setUntil(current + Math.max(0, seconds) * 1000);
    },
  };
}
