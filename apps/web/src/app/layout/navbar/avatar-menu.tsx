import { DownOutlined, EditOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { BUILD_VERSION } from '@uiot/contracts';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  canEditOwnAccount,
  loginPath,
  openAccountDialog,
  signOut,
  useCurrentUser,
} from '../../../lib/auth/index.ts';
import { useUserMenus } from '../../menu/menu-context.ts';
import { menuTrailByName } from '../../menu/menu-tree.ts';

const item = (key: string, label: string, icon?: ReactNode) => ({
  key,
  icon,
  label: <span data-testid={`avatar-menu-${key}`}>{label}</span>,
});

/** Avatar menu (spec §2): profile, change info, change password, sign out, build version. */
export function AvatarMenu() {
  const { t } = useTranslation('shell');
  const user = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const hasProfile = menuTrailByName(useUserMenus(), 'Profile').length > 0;
  if (!user) return null;
  const editable = canEditOwnAccount(user);

  const items: MenuProps['items'] = [
    ...(hasProfile ? [item('profile', t('avatar.profile'), <UserOutlined />)] : []),
    ...(editable
      ? [
          item('change-info', t('avatar.changeInfo'), <EditOutlined />),
          item('change-password', t('avatar.changePassword'), <LockOutlined />),
        ]
      : []),
    { type: 'divider' },
    item('sign-out', t('avatar.signOut'), <LogoutOutlined />),
    { type: 'divider' },
    { ...item('version', t('common:version', { version: BUILD_VERSION })), disabled: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') navigate('/profile');
    if (key === 'change-info') openAccountDialog('changeInfo');
    if (key === 'change-password') openAccountDialog('changePassword');
    if (key === 'sign-out') void signOut({ landing: loginPath(location.pathname + location.search) });
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
      <button type="button" className="uiot-navbar__avatar" data-testid="avatar-menu">
        <Avatar size={30} src={user.avatar || undefined} className="uiot-navbar__avatar-image">
          {user.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <DownOutlined className="uiot-navbar__avatar-caret" />
      </button>
    </Dropdown>
  );
}
