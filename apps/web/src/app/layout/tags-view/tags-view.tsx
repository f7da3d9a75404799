import { CloseOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { isMenuRouteHandle } from '../../menu/menu-context.ts';
import type { TagsAction, TagView } from './tags-reducer.ts';
import { closeTags, dispatchTags, useVisitedViews } from './tags-store.ts';

type TagCommand = 'refresh' | 'close' | 'close-others' | 'close-all';

/** The active tab is scrolled into the bar's view. */
function scrollIntoView(element: HTMLAnchorElement | null): void {
  element?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/** Adds each visited page to the tabs (the pinned ones are set when the routes are built). */
function useTrackVisitedViews(): void {
  const location = useLocation();
  const matches = useMatches();
  const menu = matches.map((match) => match.handle).findLast(isMenuRouteHandle)?.menu;

  useEffect(() => {
    if (!menu) return;
    dispatchTags({
      type: 'visit',
      view: {
        path: location.pathname,
        fullPath: location.pathname + location.search,
        titleKey: menu.titleKey,
        affix: Boolean(menu.affix),
      },
    });
  }, [menu, location.pathname, location.search]);
}

/** Tabs bar (spec §2): a tab per visited view; pinned tabs cannot be closed. */
export function TagsView() {
  const { t } = useTranslation('shell');
  const views = useVisitedViews();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useTrackVisitedViews();

  const close = (action: TagsAction) => {
    const landing = closeTags(action, pathname);
    if (landing) navigate(landing);
  };

  const run = (command: TagCommand, view: TagView) => {
    switch (command) {
      case 'refresh':
        navigate(`/redirect${view.fullPath}`, { replace: true });
        return;
      case 'close':
        close({ type: 'close', path: view.path });
        return;
      case 'close-others':
        dispatchTags({ type: 'closeOthers', path: view.path });
        if (view.path !== pathname) navigate(view.fullPath);
        return;
      case 'close-all':
        close({ type: 'closeAll' });
        return;
    }
  };

  const menuOf = (view: TagView): MenuProps => ({
    items: (
      [
        ['refresh', t('tags.refresh')],
        ...(view.affix ? [] : [['close', t('tags.close')]]),
        ['close-others', t('tags.closeOthers')],
        ['close-all', t('tags.closeAll')],
      ] as [TagCommand, string][]
    ).map(([key, label]) => ({ key, label: <span data-testid={`tag-menu-${key}`}>{label}</span> })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run(key as TagCommand, view);
    },
  });

  return (
    <nav className="uiot-tags" aria-label={t('tags.label')} data-testid="tags-view">
      {views.map((view) => {
        const active = view.path === pathname;
        const title = t(`menu:${view.titleKey}`);
        return (
          <Dropdown key={view.path} trigger={['contextMenu']} menu={menuOf(view)}>
            <Link
              ref={active ? scrollIntoView : undefined}
              to={view.fullPath}
              className={active ? 'uiot-tags__item uiot-tags__item--active' : 'uiot-tags__item'}
              title={title}
              data-testid="tags-view-item"
              data-path={view.path}
              data-active={active}
              data-affix={view.affix}
            >
              <span className="uiot-tags__title">{title}</span>
              {!view.affix && (
                <CloseOutlined
                  className="uiot-tags__close"
                  aria-label={t('tags.close')}
                  data-testid="tags-view-close"
                  onClick={(event) => {
                    event.preventDefault();
                    event.stopPropagation();
                    run('close', view);
                  }}
                />
              )}
            </Link>
          </Dropdown>
        );
      })}
    </nav>
  );
}
