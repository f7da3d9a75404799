/**
 * How often live events may make a page call the server: a burst of reports must not become a burst of
 * requests.
 */

/** A page that a live change made stale is asked for again after this quiet time (spec §9 debounce)... */
export const PAGE_REFRESH_QUIET_MS = 500;
/** ...and no later than this while events keep coming. */
export const PAGE_REFRESH_MAX_WAIT_MS = 2_000;

export interface Scheduled {
  /** Asks for a run. */
  request(): void;
  /** Drops a run that is waiting (the page went away). */
  cancel(): void;
}

/**
 * Runs `run` at most once every `intervalMs`: the first request at once, requests during the interval as one
 * run at its end.
 */
export function atMostEvery(intervalMs: number, run: () => void): Scheduled {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let waiting = false;
  const open = () => {
    timer = setTimeout(() => {
      timer = null;
      if (!waiting) return;
      waiting = false;
      run();
      open();
    }, intervalMs);
  };
  return {
    request: () => {
      if (timer) {
        waiting = true;
        return;
      }
      run();
      open();
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = false;
    },
  };
}

/**
 * Runs `run` once requests have stopped for `quietMs` (spec §9 debounce, 500 ms by default), and at the
 * latest `maxWaitMs` after the first waiting request, so that a steady stream of events still gets a run.
 */
export function afterQuiet(quietMs: number, maxWaitMs: number, run: () => void): Scheduled {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstAt: number | null = null;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    firstAt = null;
  };
  return {
    request: () => {
      const now = Date.now();
      firstAt ??= now;
      if (timer) clearTimeout(timer);
      const delay = Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - now));
      timer = setTimeout(() => {
        cancel();
        run();
      }, delay);
    },
    cancel,
  };
}
