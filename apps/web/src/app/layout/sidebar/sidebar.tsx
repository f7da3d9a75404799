import { BUILD_VERSION } from '@uiot/contracts';
import { Drawer, Layout } from 'antd';
import { Link } from 'react-router';
import { useLang } from '../../../lib/i18n/index.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config/runtime-config.ts';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from '../use-layout.ts';
import { SidebarMenu } from './sidebar-menu.tsx';

function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const lang = useLang();
  const title = getRuntimeConfig().system.title[lang];
  return (
    <Link to="/" className="uiot-sidebar__logo" title={`${title} ${BUILD_VERSION}`}>
      <img src="/logo.svg" alt="" />
      {!collapsed && <span className="uiot-sidebar__title">{title}</span>}
    </Link>
  );
}

interface SidebarProps {
  mobile: boolean;
  collapsed: boolean;
  showLogo: boolean;
  onCloseMobile: () => void;
}

/** The sidebar: a fixed column on desktops, a drawer over the page in mobile mode. */
export function Sidebar({ mobile, collapsed, showLogo, onCloseMobile }: SidebarProps) {
  if (mobile) {
    return (
      <Drawer
        open={!collapsed}
        placement="left"
        size={SIDEBAR_WIDTH}
        closable={false}
        onClose={onCloseMobile}
        className="uiot-sidebar uiot-sidebar--drawer"
        styles={{ body: { padding: 0 } }}
      >
        {showLogo && <SidebarLogo collapsed={false} />}
        <SidebarMenu collapsed={false} onNavigate={onCloseMobile} />
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      width={SIDEBAR_WIDTH}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
      collapsed={collapsed}
      trigger={null}
      className="uiot-sidebar"
      data-testid="sidebar"
      data-collapsed={collapsed}
    >
      {showLogo && <SidebarLogo collapsed={collapsed} />}
      <SidebarMenu collapsed={collapsed} />
    </Layout.Sider>
  );
}
