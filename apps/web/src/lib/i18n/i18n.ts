import { DEFAULT_LANG, LANGUAGES, type Lang } from '@uiot/contracts';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import { readItem, writeItem } from '../store/storage.ts';
import { NAMESPACES, resources } from './resources.ts';

/** The chosen language is remembered in the browser (spec §1). */
export const LANGUAGE_STORAGE_KEY = 'uiot.language';

const DAYJS_LOCALES: Record<Lang, string> = { 'zh-CN': 'zh-cn', en: 'en', 'zh-TW': 'zh-tw' };

export function isLang(value: unknown): value is Lang {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

function rememberedLang(): Lang {
  const stored = readItem('local', LANGUAGE_STORAGE_KEY);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

export const i18n = i18next.createInstance();
i18n.use(initReactI18next).init({
  resources,
  lng: rememberedLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

function applyLang(lang: Lang): void {
  dayjs.locale(DAYJS_LOCALES[lang]);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
applyLang(currentLang());
i18n.on('languageChanged', (lang) => applyLang(isLang(lang) ? lang : DEFAULT_LANG));

export function currentLang(): Lang {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

export async function changeLanguage(lang: Lang): Promise<void> {
  writeItem('local', LANGUAGE_STORAGE_KEY, lang);
  await i18n.changeLanguage(lang);
}
