import type { MenuEntry } from '@uiot/contracts';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useUserMenus } from '../../menu/menu-context.ts';
import { menuTrail, menuTrailByName, openGroupNames, sidebarEntries } from '../../menu/menu-tree.ts';
import { MenuIcon } from './menu-icons.tsx';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(entries: readonly MenuEntry[], title: (entry: MenuEntry) => string): MenuItem[] {
  return entries.map((entry) => ({
    key: entry.name,
    icon: <MenuIcon name={entry.icon} external={entry.external} />,
    label: (
      <span title={title(entry)} data-testid={`sidebar-item-${entry.name}`}>
        {title(entry)}
      </span>
    ),
    children: entry.children ? toItems(entry.children, title) : undefined,
  }));
}

/**
 * The sidebar menu (spec §2): built from the user's entries without the hidden ones; external links open a new
 * window; only one submenu is open at a time.
 */
export function SidebarMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('menu');
  const entries = useUserMenus();
  const visible = useMemo(() => sidebarEntries(entries), [entries]);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [openKeys, setOpenKeys] = useState<string[]>(() => openGroupNames(entries, pathname));

  useEffect(() => {
    if (!collapsed) setOpenKeys(openGroupNames(entries, pathname));
  }, [collapsed, entries, pathname]);

  // A hidden page (a detail view) keeps the entry above it selected.
  const selected = menuTrail(entries, pathname)
    .filter((entry) => !entry.hidden)
    .at(-1);

  const items = useMemo(() => toItems(visible, (entry) => t(entry.titleKey)), [visible, t]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((key) => !openKeys.includes(key));
    setOpenKeys(opened ? menuTrailByName(entries, opened).map((entry) => entry.name) : keys);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const entry = menuTrailByName(entries, key).at(-1);
    if (!entry) return;
    if (entry.external) {
      window.open(entry.path, '_blank', 'noopener,noreferrer');
      return;
    }
    if (entry.path !== pathname) navigate(entry.path);
    onNavigate?.();
  };

  return (
    <Menu
      mode="inline"
      theme="dark"
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={selected ? [selected.name] : []}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={onOpenChange}
      onClick={onClick}
      className="uiot-sidebar__menu"
      data-testid="sidebar-menu"
    />
  );
}
