import {
  canEditOwnAccount,
  closeAccountDialog,
  useAccountDialog,
  useCurrentUser,
} from '../../lib/auth/index.ts';
import { ChangeInfoDialog } from './change-info-dialog.tsx';
import { ChangePasswordDialog } from './change-password-dialog.tsx';

/** The account dialogs of the signed-in user; rendered once by the shell. */
export function AccountDialogs() {
  const dialog = useAccountDialog();
  const user = useCurrentUser();
  const editable = canEditOwnAccount(user);
  return (
    <>
      <ChangeInfoDialog open={dialog === 'changeInfo' && editable} onClose={closeAccountDialog} />
      <ChangePasswordDialog open={dialog === 'changePassword'} onClose={closeAccountDialog} />
    </>
  );
}

/** The first-sign-in password change (spec §4 Login): shown until the password is changed. */
export function ForcedPasswordChange() {
  const user = useCurrentUser();
  return <ChangePasswordDialog open={Boolean(user?.mustChangePassword)} onClose={() => undefined} forced />;
}
