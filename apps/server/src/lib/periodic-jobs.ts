import { errorMessage, type ModuleLogger } from './module-logger.ts';

export interface PeriodicJob {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  /** Run once at start as well (default false). */
  atStart?: boolean;
}

/**
 * Runs background jobs on their intervals, one at a time (the jobs of one call share a queue), never a job
 * twice at once: a job still queued or running when its interval comes round is not queued again. A
 * failure is logged and the job runs again at its next interval. Returns the function that stops the
 * timers and waits for what is running.
 */
export function startPeriodicJobs(
  jobs: readonly PeriodicJob[],
  logger: Pick<ModuleLogger, 'error'>,
  failureMessage: string,
): () => Promise<void> {
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pending = new Set<string>();
  const schedule = (job: PeriodicJob) => {
    if (stopped || pending.has(job.name)) return;
    pending.add(job.name);
    chain = chain
      .then(() => (stopped ? undefined : job.run()))
      .catch((error: unknown) => {
        logger.error({ job: job.name, error: errorMessage(error) }, failureMessage);
      })
      .finally(() => pending.delete(job.name));
  };
  const timers = jobs.map((job) => {
    const timer = setInterval(() => schedule(job), job.intervalMs);
    timer.unref();
    return timer;
  });
  for (const job of jobs) if (job.atStart) schedule(job);
  return async () => {
    stopped = true;
    for (const timer of timers) clearInterval(timer);
    await chain;
  };
}
