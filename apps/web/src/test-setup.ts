import { LANGUAGES } from '@uiot/contracts';
import { beforeAll } from 'vitest';
import { loadNamespaces } from './lib/i18n/i18n.ts';
import { NAMESPACES } from './lib/i18n/resources.ts';

// The console fetches its texts by namespace and language as it needs them; a unit test has them all.
beforeAll(async () => {
  await Promise.all(LANGUAGES.map((lang) => loadNamespaces(NAMESPACES, lang)));
});
