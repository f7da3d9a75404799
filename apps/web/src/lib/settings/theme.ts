import type { Lang } from '@uiot/contracts';
import { currentLang, i18n } from '../i18n/i18n.ts';
import { settings } from './settings.ts';

const LATIN_FONTS = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial";
/** Chinese text in the right glyph forms: Simplified for zh-CN, Hong Kong forms for zh-TW. */
export const FONT_FAMILIES: Record<Lang, string> = {
  'zh-CN': `${LATIN_FONTS}, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', sans-serif`,
  'zh-TW': `${LATIN_FONTS}, 'PingFang HK', 'PingFang TC', 'Microsoft JhengHei', 'Noto Sans CJK HK', 'Noto Sans CJK TC', 'Source Han Sans HC', sans-serif`,
  en: `${LATIN_FONTS}, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif`,
};

function apply(): void {
  const style = document.documentElement.style;
  style.setProperty('--uiot-primary', settings.get().themeColor);
  style.setProperty('--uiot-font-family', FONT_FAMILIES[currentLang()]);
}

/**
 * The theme colour and the language's fonts as CSS variables on the page, from start-up on and on every
 * change: the console's own CSS and the pages shown before antd loads use them.
 */
export function applyThemeVariables(): void {
  apply();
  settings.subscribe(apply);
  i18n.on('languageChanged', apply);
}
