import { useEffect, useState } from 'react';
import { getRuntimeConfig } from '../../lib/runtime-config/runtime-config.ts';
import { updateSettings, useSettings } from '../../lib/settings/settings.ts';

/** Spec §9: below 992 px the console is in mobile mode. */
export const MOBILE_QUERY = '(max-width: 991.98px)';
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => window.matchMedia(MOBILE_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const update = () => setMobile(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return mobile;
}

/** Which layout parts are shown: the runtime configuration can switch any off, the user's settings some. */
export function useLayoutParts() {
  const settings = useSettings();
  const { views } = getRuntimeConfig();
  return {
    sidebar: views.sidebar,
    sidebarLogo: views.sidebarLogo && settings.sidebarLogo,
    navbar: views.navbar,
    fixedHeader: views.fixedHeader && settings.fixedHeader,
    tagsView: views.tagsView && settings.tagsView,
  };
}

/**
 * Sidebar state: remembered on desktops; in mobile mode it starts collapsed and opens over the page.
 */
export function useSidebar() {
  const mobile = useIsMobile();
  const { sidebarCollapsed } = useSettings();
  const [mobileOpen, setMobileOpen] = useState(false);

  useEffect(() => {
    if (!mobile) setMobileOpen(false);
  }, [mobile]);

  return {
    mobile,
    collapsed: mobile ? !mobileOpen : sidebarCollapsed,
    toggle: () =>
      mobile ? setMobileOpen((open) => !open) : updateSettings({ sidebarCollapsed: !sidebarCollapsed }),
    closeMobile: () => setMobileOpen(false),
  };
}
