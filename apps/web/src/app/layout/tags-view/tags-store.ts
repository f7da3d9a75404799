import type { MenuEntry } from '@uiot/contracts';
import { createStore, useStore } from '../../../lib/store/store.ts';
import { affixEntries } from '../../menu/menu-tree.ts';
import { landingAfterClose, type TagsAction, type TagView, tagsReducer } from './tags-reducer.ts';

export const visitedViews = createStore<readonly TagView[]>([]);

export function dispatchTags(action: TagsAction): void {
  visitedViews.set((views) => tagsReducer(views, action));
}

/** Applies a closing action and tells where to go when the active tab went with it. */
export function closeTags(action: TagsAction, activePath: string): string | null {
  dispatchTags(action);
  return landingAfterClose(visitedViews.get(), activePath);
}

export function useVisitedViews(): readonly TagView[] {
  return useStore(visitedViews);
}

/** A new session starts with only its pinned tabs. */
export function resetTags(entries: readonly MenuEntry[]): void {
  dispatchTags({
    type: 'reset',
    affix: affixEntries(entries).map((entry) => ({
      path: entry.path,
      fullPath: entry.path,
      titleKey: entry.titleKey,
      affix: true,
    })),
  });
}
