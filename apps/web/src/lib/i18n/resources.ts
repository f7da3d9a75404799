import { LANGUAGES, type Lang } from '@uiot/contracts';

type Namespace = Record<string, unknown>;
export type LocaleResources = Record<Lang, Record<string, Namespace>>;

const files = import.meta.glob<Namespace>('../../locales/*/*.json', { eager: true, import: 'default' });

/** `locales/<lang>/<namespace>.json` → `{ lang: { namespace: texts } }`. */
export function collectResources(modules: Record<string, Namespace>): LocaleResources {
  const resources = Object.fromEntries(LANGUAGES.map((lang) => [lang, {}])) as LocaleResources;
  for (const [file, texts] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!match) continue;
    const [, lang, namespace] = match as unknown as [string, Lang, string];
    if (lang in resources) resources[lang][namespace] = texts;
  }
  return resources;
}

export const resources = collectResources(files);
export const NAMESPACES = Object.keys(resources['zh-CN']).sort();
