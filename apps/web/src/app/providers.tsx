import { QueryClientProvider } from '@tanstack/react-query';
import type { Lang } from '@uiot/contracts';
import { App as AntApp } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import { NOTIFICATION_SECONDS, TOAST_SECONDS } from '../lib/feedback/feedback.ts';
import { FeedbackBridge } from '../lib/feedback/feedback-bridge.tsx';
import { currentLang, i18n, isLang } from '../lib/i18n/i18n.ts';
import { AntdTheme } from '../lib/ui/antd-theme.tsx';
import { queryClient } from './query-client.ts';

const DAYJS_LOCALES: Record<Lang, string> = { 'zh-CN': 'zh-cn', en: 'en', 'zh-TW': 'zh-tw' };

// Dates (antd's pickers, relative times) follow the console's language, switched before pages re-render.
dayjs.locale(DAYJS_LOCALES[currentLang()]);
i18n.on('languageChanged', (lang) => dayjs.locale(DAYJS_LOCALES[isLang(lang) ? lang : currentLang()]));

/** i18n, antd (theme, locale, size, message and notification) and TanStack Query. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AntdTheme>
          <AntApp
            message={{ duration: TOAST_SECONDS, maxCount: 3 }}
            notification={{ placement: 'bottomRight', duration: NOTIFICATION_SECONDS, maxCount: 4 }}
          >
            <FeedbackBridge />
            {children}
          </AntApp>
        </AntdTheme>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
