import type { MenuEntry } from '@uiot/contracts';
import { createContext, useContext } from 'react';

/** The catalogue entries of the signed-in user, from which the shell derives sidebar, breadcrumb and tabs. */
export const UserMenusContext = createContext<readonly MenuEntry[]>([]);

export function useUserMenus(): readonly MenuEntry[] {
  return useContext(UserMenusContext);
}

/** Set on a generated route's `handle`: the catalogue entry it shows. */
export interface MenuRouteHandle {
  menu: MenuEntry;
}

export function isMenuRouteHandle(handle: unknown): handle is MenuRouteHandle {
  return typeof handle === 'object' && handle !== null && 'menu' in handle;
}
