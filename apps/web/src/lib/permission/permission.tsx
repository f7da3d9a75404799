import {
  accessKeys,
  closedFeature,
  type Endpoint,
  type FeatureFlagValues,
  type PermissionKey,
  type UserInfo,
} from '@uiot/contracts';
import type { ReactNode } from 'react';
import { useCurrentUser, useFeatureFlags } from '../auth/session.ts';
import { i18n } from '../i18n/i18n.ts';

/**
 * The console's single permission helper. The server enforces every key; this only decides what the
 * console shows (ARCHITECTURE §4). Buttons ask about the endpoint they call (`can(api.role.save)`): its
 * `access` declaration and its feature flags decide, so no page repeats a permission key.
 */

type Holder = Pick<UserInfo, 'permissions' | 'menus'>;

/** What decides whether an endpoint may be called: its declaration in the contracts. */
export type EndpointGate = Pick<Endpoint, 'access' | 'features'>;

/** Whether a user holds a permission key (a menu name or a button key). */
export function hasPermission(user: Holder | null, key: string): boolean {
  // Spec §5: asking without a key is a programming error ('need button permissions!').
  if (!key) throw new Error(i18n.t('errors:needButtonPermission'));
  return Boolean(user && (user.permissions.includes(key) || user.menus.includes(key)));
}

/**
 * Whether the user may call `endpoint`: a public one always, a signed-in one when signed in, otherwise
 * when the user holds one of its keys; and every feature flag it belongs to is on (else the server answers
 * FeatureDisabled).
 */
export function canCall(user: Holder | null, flags: FeatureFlagValues, endpoint: EndpointGate): boolean {
  if (closedFeature(flags, endpoint.features ?? []) !== null) return false;
  if (endpoint.access === 'public') return true;
  const keys: readonly PermissionKey[] | null = accessKeys(endpoint.access);
  if (keys === null) return user !== null;
  return keys.some((key) => hasPermission(user, key));
}

/** `can(api.x.save)`: whether the signed-in user may call the endpoint (see `canCall`). */
export function useCan(): (endpoint: EndpointGate) => boolean {
  const user = useCurrentUser();
  const flags = useFeatureFlags();
  return (endpoint) => canCall(user, flags, endpoint);
}

/** Renders its children only for users who may call `endpoint`; otherwise the element is removed (spec §5). */
export function Can({ endpoint, children }: { endpoint: EndpointGate; children: ReactNode }) {
  return useCan()(endpoint) ? children : null;
}
