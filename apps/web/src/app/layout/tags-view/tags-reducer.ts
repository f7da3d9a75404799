import { HOME_PATH } from '../../paths.ts';

/** A visited view in the tags bar (spec §2 Tabs bar). */
export interface TagView {
  /** Route path: one tab per path. */
  path: string;
  /** Path with the query, reopened when the tab is clicked. */
  fullPath: string;
  /** Title key in namespace `menu`. */
  titleKey: string;
  /** Pinned: never closed. */
  affix: boolean;
}

export type TagsAction =
  | { type: 'visit'; view: TagView }
  | { type: 'close'; path: string }
  | { type: 'closeOthers'; path: string }
  | { type: 'closeAll' }
  | { type: 'reset'; affix: readonly TagView[] };

export function tagsReducer(views: readonly TagView[], action: TagsAction): readonly TagView[] {
  switch (action.type) {
    case 'visit': {
      const index = views.findIndex((view) => view.path === action.view.path);
      if (index < 0) return [...views, action.view];
      const current = views[index]!;
      if (current.fullPath === action.view.fullPath && current.titleKey === action.view.titleKey)
        return views;
      return views.map((view, i) =>
        i === index ? { ...action.view, affix: current.affix || action.view.affix } : view,
      );
    }
    case 'close':
      return views.filter((view) => view.affix || view.path !== action.path);
    case 'closeOthers':
      return views.filter((view) => view.affix || view.path === action.path);
    case 'closeAll':
      return views.filter((view) => view.affix);
    case 'reset':
      return [...action.affix];
  }
}

/**
 * Where to go after tabs were closed: nowhere while the active tab is still open, else the last remaining tab,
 * else home (spec §2).
 */
export function landingAfterClose(remaining: readonly TagView[], activePath: string): string | null {
  if (remaining.some((view) => view.path === activePath)) return null;
  return remaining.at(-1)?.fullPath ?? HOME_PATH;
}
