import { GlobalOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlarmBell } from '../../../features/alarms/index.ts';
import { useCurrentUser } from '../../../lib/auth/index.ts';
import { LanguageSwitch, useSupportsMultiLanguage } from '../../../lib/i18n/index.ts';
import { AvatarMenu } from './avatar-menu.tsx';
import { ErrorLogButton } from './error-log-button.tsx';
import { FullscreenToggle } from './fullscreen-toggle.tsx';
import { LiveStatus } from './live-status.tsx';
import { ShellBreadcrumb } from './shell-breadcrumb.tsx';
import { SizeSwitch } from './size-switch.tsx';

interface NavbarProps {
  showSidebarToggle: boolean;
  sidebarCollapsed: boolean;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
  compact: boolean;
}

/** Navbar (spec §2): sidebar toggle, breadcrumb, welcome line, live-data status, the alarm bell and the user's
 * tools. */
export function Navbar({
  showSidebarToggle,
  sidebarCollapsed,
  onToggleSidebar,
  onOpenSettings,
  compact,
}: NavbarProps) {
  const { t } = useTranslation('shell');
  const user = useCurrentUser();
  const multiLanguage = useSupportsMultiLanguage();
  const toggleLabel = sidebarCollapsed ? t('sidebar.expand') : t('sidebar.collapse');

  return (
    <div className="uiot-navbar">
      {showSidebarToggle && (
        <Button
          type="text"
          icon={sidebarCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleSidebar}
          aria-label={toggleLabel}
          title={toggleLabel}
          data-testid="sidebar-toggle"
        />
      )}
      {!compact && <ShellBreadcrumb />}
      <div className="uiot-navbar__tools">
        {user && !compact && (
          <Typography.Text
            className="uiot-navbar__welcome"
            ellipsis={{ tooltip: user.name }}
            data-testid="welcome"
          >
            {t('navbar.welcome', { name: user.name })}
          </Typography.Text>
        )}
        <LiveStatus />
        <AlarmBell />
        <ErrorLogButton />
        {!compact && <FullscreenToggle />}
        {multiLanguage && (
          <LanguageSwitch>
            <Button
              type="text"
              icon={<GlobalOutlined />}
              aria-label={t('navbar.language')}
              title={t('navbar.language')}
              data-testid="lang-switch"
            />
          </LanguageSwitch>
        )}
        <SizeSwitch />
        <Tooltip title={t('settings.title')} placement="bottom">
          <Button
            type="text"
            icon={<SettingOutlined />}
            onClick={onOpenSettings}
            aria-label={t('settings.title')}
            data-testid="settings-open"
          />
        </Tooltip>
        <AvatarMenu />
      </div>
    </div>
  );
}
