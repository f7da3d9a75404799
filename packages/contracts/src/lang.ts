/** Console languages: zh-CN is the default and the fallback (spec §1). */
export const LANGUAGES = ['zh-CN', 'en', 'zh-TW'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'zh-CN';

/** A text in every console language. */
export type Translated = Record<Lang, string>;

/** Picks the best console language from an Accept-Language header value. */
export function resolveLanguage(header: string | undefined | null): Lang {
  if (!header) return DEFAULT_LANG;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-mo' || tag.startsWith('zh-hant')) return 'zh-TW';
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
  }
  return DEFAULT_LANG;
}
