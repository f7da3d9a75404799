import { currentBrowserPath, loginPath } from './login-path.ts';
import { signOut } from './session.ts';

/** The server no longer accepts the token (spec §8): leave the session once and return to the login page. */
export function expireSession(): void {
  void signOut({ revoke: false, landing: loginPath(currentBrowserPath()) });
}
