import type { ComponentType } from 'react';
import { loadChunk } from '../lib/chunks/load-chunk.ts';

export type PageLoader = () => Promise<ComponentType>;

/** A route's `lazy` for a page, reloading once when its chunk fails to load (spec §4 Navigation). */
export function lazyPage(load: PageLoader): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: await loadChunk(load) });
}
