import type { Lang } from '@uiot/contracts';
import { ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhHK from 'antd/locale/zh_HK';
import type { ReactNode } from 'react';
import { useLang } from '../i18n/use-lang.ts';
import { type LayoutSize, useSettings } from '../settings/settings.ts';
import { FONT_FAMILIES } from '../settings/theme.ts';

/** zh-TW readers are mostly in Hong Kong (GLOSSARY.md): antd's Hong Kong texts. */
const ANTD_LOCALES: Record<Lang, Locale> = { 'zh-CN': zhCN, en: enUS, 'zh-TW': zhHK };

/** Layout sizes of spec §2 on antd: component size, and the compact algorithm for the in-between steps. */
const SIZE_MAPPING: Record<LayoutSize, { componentSize: 'medium' | 'small'; compact: boolean }> = {
  default: { componentSize: 'medium', compact: false },
  medium: { componentSize: 'medium', compact: true },
  small: { componentSize: 'small', compact: false },
  mini: { componentSize: 'small', compact: true },
};

/** antd in the console's theme, locale and layout size. */
export function AntdTheme({ children }: { children: ReactNode }) {
  const lang = useLang();
  const { themeColor, size } = useSettings();
  const { componentSize, compact } = SIZE_MAPPING[size];
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[lang]}
      componentSize={componentSize}
      theme={{
        token: { colorPrimary: themeColor, borderRadius: 4, fontFamily: FONT_FAMILIES[lang] },
        algorithm: compact ? [theme.defaultAlgorithm, theme.compactAlgorithm] : theme.defaultAlgorithm,
      }}
    >
      {children}
    </ConfigProvider>
  );
}
