import NProgress from 'nprogress';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { ForcedPasswordChange } from '../features/auth/account-dialogs.tsx';
import { useLang } from '../lib/i18n/index.ts';
import { getRuntimeConfig } from '../lib/runtime-config/runtime-config.ts';
import { isMenuRouteHandle } from './menu/menu-context.ts';
import 'nprogress/nprogress.css';

NProgress.configure({ showSpinner: false });

/** A progress bar on every navigation (spec §4 Navigation). */
function useNavigationProgress(): void {
  const { state } = useNavigation();
  useEffect(() => {
    if (state === 'idle') NProgress.done();
    else NProgress.start();
  }, [state]);
}

/** `<page> - <system title>`, in the current language. */
function useDocumentTitle(): void {
  const { t } = useTranslation('menu');
  const lang = useLang();
  const matches = useMatches();
  const menu = matches.map((match) => match.handle).findLast(isMenuRouteHandle)?.menu;
  const systemTitle = getRuntimeConfig().system.title[lang];
  useEffect(() => {
    document.title = menu ? `${t(menu.titleKey)} - ${systemTitle}` : systemTitle;
  }, [menu, systemTitle, t]);
}

export function RootLayout() {
  useNavigationProgress();
  useDocumentTitle();
  return (
    <>
      <Outlet />
      <ForcedPasswordChange />
    </>
  );
}
