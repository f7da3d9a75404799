import { readItem, writeItem } from '../store/storage.ts';

/** Set while the one reload after a failed code-chunk load is under way (spec §4 Navigation). */
const CHUNK_RELOAD_KEY = 'uiot.chunk-reload';

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|Loading (CSS )?chunk|module script/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

/**
 * Loads code (or texts) the build split off. A new release replaces the chunk files, so a chunk that fails
 * to load makes the browser reload once, to the new release; a second failure in a row is thrown.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    const loaded = await load();
    writeItem('session', CHUNK_RELOAD_KEY, null);
    return loaded;
  } catch (error) {
    if (isChunkLoadError(error) && readItem('session', CHUNK_RELOAD_KEY) === null) {
      writeItem('session', CHUNK_RELOAD_KEY, String(Date.now()));
      window.location.reload();
      return new Promise<never>(() => undefined);
    }
    writeItem('session', CHUNK_RELOAD_KEY, null);
    throw error;
  }
}
