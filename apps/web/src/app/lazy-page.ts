import type { ComponentType } from 'react';
import { readItem, writeItem } from '../lib/store/storage.ts';

export type PageLoader = () => Promise<ComponentType>;

/** Set while the one reload after a failed code-chunk load is under way (spec §4 Navigation). */
const CHUNK_RELOAD_KEY = 'uiot.chunk-reload';

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|Loading (CSS )?chunk|module script/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

/**
 * A route's `lazy` for a page. A new release replaces the chunk files, so a page chunk that fails to load
 * makes the browser reload once; a second failure in a row is shown as an error.
 */
export function lazyPage(load: PageLoader): () => Promise<{ Component: ComponentType }> {
  return async () => {
    try {
      const Component = await load();
      writeItem('session', CHUNK_RELOAD_KEY, null);
      return { Component };
    } catch (error) {
      if (isChunkLoadError(error) && readItem('session', CHUNK_RELOAD_KEY) === null) {
        writeItem('session', CHUNK_RELOAD_KEY, String(Date.now()));
        window.location.reload();
        return new Promise<never>(() => undefined);
      }
      writeItem('session', CHUNK_RELOAD_KEY, null);
      throw error;
    }
  };
}
