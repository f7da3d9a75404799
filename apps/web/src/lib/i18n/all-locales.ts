import { collectResources } from './resources.ts';

/**
 * Every text of every language at once, for the tests that check the locale files and the code that uses
 * them; the console itself fetches a namespace when it needs it (`loadNamespaces`).
 */
export const ALL_RESOURCES = collectResources(
  import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' }),
);
