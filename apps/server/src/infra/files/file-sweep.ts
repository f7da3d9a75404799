import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import type { FileService } from './file.service.ts';

/** How often files nothing refers to are looked for (they go once their grace period has run out). */
export const FILE_SWEEP_INTERVAL_MS = 15 * 60_000;

/** Starts the orphan sweep (at start, then every FILE_SWEEP_INTERVAL_MS); returns its stop. */
export function startFileSweep(files: FileService, logger: ModuleLogger): () => Promise<void> {
  return startPeriodicJobs(
    [
      {
        name: 'file-sweep',
        intervalMs: FILE_SWEEP_INTERVAL_MS,
        atStart: true,
        run: async () => {
          const removed = await files.sweep();
          if (removed > 0) logger.info({ removed }, 'files nothing refers to removed');
        },
      },
    ],
    logger,
    'file sweep failed',
  );
}

/** Checks that the store can be written; the reason, without any secret, when it cannot. */
export async function checkFileStore(files: FileService): Promise<string | null> {
  try {
    await files.store.check();
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}
