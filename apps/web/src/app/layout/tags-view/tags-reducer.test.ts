import { describe, expect, it } from 'vitest';
import { landingAfterClose, type TagView, tagsReducer } from './tags-reducer.ts';

const view = (path: string, affix = false): TagView => ({
  path,
  fullPath: path,
  titleKey: path.slice(1),
  affix,
});
const home = view('/home', true);
const paths = (views: readonly TagView[]) => views.map((v) => v.path);

function visited(...list: TagView[]): readonly TagView[] {
  return list.reduce<readonly TagView[]>((views, v) => tagsReducer(views, { type: 'visit', view: v }), []);
}

describe('tagsReducer', () => {
  it('adds one tab per path and updates the query of a revisited one', () => {
    let views = visited(home, view('/a'), view('/b'));
    views = tagsReducer(views, { type: 'visit', view: { ...view('/a'), fullPath: '/a?page=2' } });
    expect(paths(views)).toEqual(['/home', '/a', '/b']);
    expect(views[1]!.fullPath).toBe('/a?page=2');
  });

  it('keeps the same state when nothing changes', () => {
    const views = visited(home, view('/a'));
    expect(tagsReducer(views, { type: 'visit', view: view('/a') })).toBe(views);
  });

  it('closes a tab but never a pinned one', () => {
    const views = visited(home, view('/a'), view('/b'));
    expect(paths(tagsReducer(views, { type: 'close', path: '/a' }))).toEqual(['/home', '/b']);
    expect(paths(tagsReducer(views, { type: 'close', path: '/home' }))).toEqual(['/home', '/a', '/b']);
  });

  it('closes the others, keeping the pinned tabs', () => {
    const views = visited(home, view('/a'), view('/b'), view('/c'));
    expect(paths(tagsReducer(views, { type: 'closeOthers', path: '/b' }))).toEqual(['/home', '/b']);
  });

  it('closes all but the pinned tabs', () => {
    const views = visited(home, view('/a'), view('/b'));
    expect(paths(tagsReducer(views, { type: 'closeAll' }))).toEqual(['/home']);
  });

  it('starts again from the pinned tabs', () => {
    const views = visited(home, view('/a'));
    expect(paths(tagsReducer(views, { type: 'reset', affix: [home] }))).toEqual(['/home']);
  });
});

describe('landingAfterClose', () => {
  it('stays when the active tab is still open', () => {
    const remaining = tagsReducer(visited(home, view('/a'), view('/b')), { type: 'close', path: '/a' });
    expect(landingAfterClose(remaining, '/b')).toBeNull();
  });

  it('goes to the last remaining tab when the active one was closed', () => {
    const remaining = tagsReducer(
      visited(home, view('/a'), { ...view('/b'), fullPath: '/b?x=1' }, view('/c')),
      {
        type: 'close',
        path: '/c',
      },
    );
    expect(landingAfterClose(remaining, '/c')).toBe('/b?x=1');
  });

  it('goes to the pinned tab after closing all', () => {
    const remaining = tagsReducer(visited(home, view('/a')), { type: 'closeAll' });
    expect(landingAfterClose(remaining, '/a')).toBe('/home');
  });

  it('goes home when no tab remains', () => {
    const remaining = tagsReducer(visited(view('/a')), { type: 'closeAll' });
    expect(landingAfterClose(remaining, '/a')).toBe('/home');
  });
});
