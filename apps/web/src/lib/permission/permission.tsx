import type { UserInfo } from '@uiot/contracts';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../auth/session.ts';
import { i18n } from '../i18n/i18n.ts';

/**
 * Whether a user holds a permission key (a menu name or a button key). The server enforces every key; this only
 * decides what the console shows (ARCHITECTURE §4).
 */
export function hasPermission(user: Pick<UserInfo, 'permissions' | 'menus'> | null, key: string): boolean {
  // Spec §5: asking without a key is a programming error ('need button permissions!').
  if (!key) throw new Error(i18n.t('errors:needButtonPermission'));
  return Boolean(user && (user.permissions.includes(key) || user.menus.includes(key)));
}

export function usePermission(): (key: string) => boolean {
  const user = useCurrentUser();
  return (key) => hasPermission(user, key);
}

/** Renders its children only for users holding `permission`; otherwise the element is removed (spec §5). */
export function Can({ permission, children }: { permission: string; children: ReactNode }) {
  return usePermission()(permission) ? children : null;
}
