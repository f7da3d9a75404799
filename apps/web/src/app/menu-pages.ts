import type { PageLoader } from './lazy-page.ts';

/**
 * The page of each menu catalogue entry, by the entry's `name`. Routes are generated from the catalogue
 * entries the user may open; each loads its page on first visit.
 */
export const MENU_PAGES: Readonly<Record<string, PageLoader>> = {
  Home: () => import('../features/home/home-page.tsx').then((module) => module.HomePage),
  Profile: () => import('../features/profile/profile-page.tsx').then((module) => module.ProfilePage),
};
