import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useUserMenus } from '../../menu/menu-context.ts';
import { menuTrail } from '../../menu/menu-tree.ts';
import { HOME_PATH } from '../../paths.ts';

/** Breadcrumb (spec §2): starts at home; the last item is not a link. */
export function ShellBreadcrumb() {
  const { t } = useTranslation('menu');
  const { pathname } = useLocation();
  const trail = menuTrail(useUserMenus(), pathname).filter((entry) => entry.name !== 'Home');
  const home = trail.length === 0 ? { title: t('home') } : { title: <Link to={HOME_PATH}>{t('home')}</Link> };
  return (
    <Breadcrumb
      className="uiot-navbar__breadcrumb"
      data-testid="breadcrumb"
      items={[home, ...trail.map((entry) => ({ key: entry.name, title: t(entry.titleKey) }))]}
    />
  );
}
