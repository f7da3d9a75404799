import { LANGUAGES, type Lang } from '@uiot/contracts';

type Namespace = Record<string, unknown>;
export type LocaleResources = Record<Lang, Record<string, Namespace>>;

/** Each locale file is a chunk of its own, fetched when the console first needs it in that language. */
const files = import.meta.glob<Namespace>('../../locales/*/*.json', { import: 'default' });

const FILE = /\/locales\/([^/]+)\/([^/]+)\.json$/;

function localeOf(file: string): { lang: string; namespace: string } | null {
  const match = FILE.exec(file);
  return match ? { lang: match[1] as string, namespace: match[2] as string } : null;
}

/** The namespaces of the console's texts (`locales/<lang>/<namespace>.json`). */
export const NAMESPACES = [
  ...new Set(Object.keys(files).flatMap((file) => localeOf(file)?.namespace ?? [])),
].sort();

/** Fetches the texts of one namespace in one language. */
export function fetchLocale(lang: Lang, namespace: string): Promise<Namespace> {
  const load = files[`../../locales/${lang}/${namespace}.json`];
  if (!load) return Promise.reject(new Error(`No texts of namespace ${namespace} in ${lang}`));
  return load();
}

/** `locales/<lang>/<namespace>.json` → `{ lang: { namespace: texts } }`. */
export function collectResources(modules: Record<string, Namespace>): LocaleResources {
  const resources = Object.fromEntries(LANGUAGES.map((lang) => [lang, {}])) as LocaleResources;
  for (const [file, texts] of Object.entries(modules)) {
    const locale = localeOf(file);
    if (locale && locale.lang in resources) resources[locale.lang as Lang][locale.namespace] = texts;
  }
  return resources;
}
