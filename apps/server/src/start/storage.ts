import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { checkFileStore, startFileSweep } from '../infra/files/file-sweep.ts';
import { moveLegacySignatures } from '../modules/org/index.ts';
import type { Services } from '../services.ts';
import { readTlsFiles, TlsFileError, type TlsMaterial } from '../tls-files.ts';

/** A start-up failure told in one line naming the setting to change (no stack). */
export class StartupError extends Error {
  override name = 'StartupError';
}

export function tlsOf(config: Config): TlsMaterial | undefined {
  if (!config.tls) return undefined;
  try {
    return readTlsFiles(config.tls);
  } catch (error) {
    throw error instanceof TlsFileError ? new StartupError(error.message) : error;
  }
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    try {
      return await openPostgres(config.databaseUrl);
    } catch (error) {
      throw new StartupError(`DATABASE_URL: cannot connect to PostgreSQL (${(error as Error).message})`);
    }
  }
  return openPglite(path.join(config.dataDir, 'db'));
}

/**
 * Checks that the file store can be written, moves signatures kept in rows before the file store into it
 * and starts the sweep of orphaned files; returns the sweep's stop.
 */
export async function prepareFileStore(
  config: Config,
  database: Database,
  services: Services,
  log: Logger,
): Promise<() => Promise<void>> {
  const problem = await checkFileStore(services.files);
  if (problem) {
    const setting = config.fileStore ? 'FILE_STORE_URL' : 'DATA_DIR';
    throw new StartupError(
      `${setting}: cannot store files in the ${services.files.store.description} (${problem})`,
    );
  }
  log.info({ store: services.files.store.description }, 'files are kept in the file store');
  await moveLegacySignatures(database.db, services.files);
  return startFileSweep(services.files, log.child({ module: 'files' }));
}
