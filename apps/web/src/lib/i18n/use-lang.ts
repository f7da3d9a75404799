import type { Lang } from '@uiot/contracts';
import { useTranslation } from 'react-i18next';
import { currentLang } from './i18n.ts';

/** The current console language; re-renders when it changes. */
export function useLang(): Lang {
  useTranslation();
  return currentLang();
}
