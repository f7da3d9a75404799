import { QueryClientProvider } from '@tanstack/react-query';
import type { Lang } from '@uiot/contracts';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhHK from 'antd/locale/zh_HK';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { NOTIFICATION_SECONDS, TOAST_SECONDS } from '../lib/feedback/feedback.ts';
import { FeedbackBridge } from '../lib/feedback/feedback-bridge.tsx';
import { i18n, useLang } from '../lib/i18n/index.ts';
import { type LayoutSize, useSettings } from '../lib/settings/settings.ts';
import { queryClient } from './query-client.ts';

/** zh-TW readers are mostly in Hong Kong (GLOSSARY.md): antd's Hong Kong texts. */
const ANTD_LOCALES: Record<Lang, Locale> = { 'zh-CN': zhCN, en: enUS, 'zh-TW': zhHK };

const LATIN_FONTS = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial";
/** Chinese text in the right glyph forms: Simplified for zh-CN, Hong Kong forms for zh-TW. */
const FONT_FAMILIES: Record<Lang, string> = {
  'zh-CN': `${LATIN_FONTS}, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', sans-serif`,
  'zh-TW': `${LATIN_FONTS}, 'PingFang HK', 'PingFang TC', 'Microsoft JhengHei', 'Noto Sans CJK HK', 'Noto Sans CJK TC', 'Source Han Sans HC', sans-serif`,
  en: `${LATIN_FONTS}, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif`,
};

/** Layout sizes of spec §2 on antd: component size, and the compact algorithm for the in-between steps. */
const SIZE_MAPPING: Record<LayoutSize, { componentSize: 'medium' | 'small'; compact: boolean }> = {
  default: { componentSize: 'medium', compact: false },
  medium: { componentSize: 'medium', compact: true },
  small: { componentSize: 'small', compact: false },
  mini: { componentSize: 'small', compact: true },
};

function ThemedApp({ children }: { children: ReactNode }) {
  const lang = useLang();
  const { themeColor, size } = useSettings();
  const { componentSize, compact } = SIZE_MAPPING[size];

  useEffect(() => {
    document.documentElement.style.setProperty('--uiot-primary', themeColor);
    document.documentElement.style.setProperty('--uiot-font-family', FONT_FAMILIES[lang]);
  }, [themeColor, lang]);

  return (
    <ConfigProvider
      locale={ANTD_LOCALES[lang]}
      componentSize={componentSize}
      theme={{
        token: { colorPrimary: themeColor, borderRadius: 4, fontFamily: FONT_FAMILIES[lang] },
        algorithm: compact ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
      }}
    >
      <AntApp
        message={{ duration: TOAST_SECONDS, maxCount: 3 }}
        notification={{ placement: 'bottomRight', duration: NOTIFICATION_SECONDS, maxCount: 4 }}
      >
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/** i18n, antd (theme, locale, size, message and notification) and TanStack Query. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemedApp>{children}</ThemedApp>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
