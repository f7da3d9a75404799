import type { UserInfo } from '@uiot/contracts';
import { createStore, useStore } from '../store/store.ts';

/** The user's own account dialogs, opened from the avatar menu or the profile page. */
export type AccountDialog = 'changeInfo' | 'changePassword';

export const accountDialog = createStore<AccountDialog | null>(null);

export function openAccountDialog(dialog: AccountDialog): void {
  accountDialog.set(dialog);
}

export function closeAccountDialog(): void {
  accountDialog.set(null);
}

export function useAccountDialog(): AccountDialog | null {
  return useStore(accountDialog);
}

/** The built-in administrator's information and password are not changed from the console (spec §2). */
export function canEditOwnAccount(user: Pick<UserInfo, 'isBuiltInAdmin'> | null): boolean {
  return Boolean(user && !user.isBuiltInAdmin);
}
