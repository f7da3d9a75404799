import { Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { AccountDialogs } from '../../features/auth/account-dialogs.tsx';
import { Navbar } from './navbar/navbar.tsx';
import { SettingsDrawer } from './settings-drawer.tsx';
import { Sidebar } from './sidebar/sidebar.tsx';
import { TagsView } from './tags-view/tags-view.tsx';
import { useLayoutParts, useSidebar } from './use-layout.ts';
import './shell.css';

/** The signed-in console (spec §2): sidebar, navbar, tabs bar, page, settings panel and account dialogs. */
export function ShellLayout() {
  const parts = useLayoutParts();
  const sidebar = useSidebar();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const header = parts.navbar || parts.tagsView;

  return (
    <Layout className="uiot-shell" hasSider={parts.sidebar && !sidebar.mobile}>
      {parts.sidebar && (
        <Sidebar
          mobile={sidebar.mobile}
          collapsed={sidebar.collapsed}
          showLogo={parts.sidebarLogo}
          onCloseMobile={sidebar.closeMobile}
        />
      )}
      <Layout className="uiot-shell__main">
        {header && (
          <header
            className={
              parts.fixedHeader ? 'uiot-shell__header uiot-shell__header--fixed' : 'uiot-shell__header'
            }
          >
            {parts.navbar && (
              <Navbar
                showSidebarToggle={parts.sidebar}
                sidebarCollapsed={sidebar.collapsed}
                onToggleSidebar={sidebar.toggle}
                onOpenSettings={() => setSettingsOpen(true)}
                compact={sidebar.mobile}
              />
            )}
            {parts.tagsView && <TagsView />}
          </header>
        )}
        <Layout.Content className="uiot-shell__content" data-testid="page-content">
          <Outlet />
        </Layout.Content>
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <AccountDialogs />
    </Layout>
  );
}
