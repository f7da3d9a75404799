import { DEFAULT_LANG, LANGUAGES, type Lang } from '@uiot/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, writeItem } from '../store/storage.ts';
import { fetchLocale } from './resources.ts';

/** The chosen language is remembered in the browser (spec §1). */
export const LANGUAGE_STORAGE_KEY = 'uiot.language';

export function isLang(value: unknown): value is Lang {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

function rememberedLang(): Lang {
  const stored = readItem('local', LANGUAGE_STORAGE_KEY);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

/** Texts arrive by namespace and language (`loadNamespaces`), before the pages that use them render. */
export const i18n = i18next.createInstance();
i18n.use(initReactI18next).init({
  lng: rememberedLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGUAGES],
  defaultNS: 'common',
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

function applyLang(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
applyLang(currentLang());
i18n.on('languageChanged', (lang) => applyLang(isLang(lang) ? lang : DEFAULT_LANG));

export function currentLang(): Lang {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

/** Namespaces the console has asked for: a language switch fetches them all in the new language first. */
const wanted = new Set<string>();

/** Fetches the namespaces not yet there in `lang` (by default the current language). */
export async function loadNamespaces(
  namespaces: readonly string[],
  lang: Lang = currentLang(),
): Promise<void> {
  for (const namespace of namespaces) wanted.add(namespace);
  await Promise.all(
    namespaces
      .filter((namespace) => !i18n.hasResourceBundle(lang, namespace))
      .map(async (namespace) => {
        i18n.addResourceBundle(lang, namespace, await fetchLocale(lang, namespace), true, true);
      }),
  );
}

/** Switches the console's language once every namespace in use has its texts in that language. */
export async function changeLanguage(lang: Lang): Promise<void> {
  await loadNamespaces([...wanted], lang);
  writeItem('local', LANGUAGE_STORAGE_KEY, lang);
  await i18n.changeLanguage(lang);
}
