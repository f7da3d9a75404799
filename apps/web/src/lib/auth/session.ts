// Endpoints by name rather than through `api`: this module is part of the login page's bundle, which
// holds only what that page calls.
import {
  getFeatureFlags,
  getUserInfo,
  type LoginForm,
  loginCheck,
  logout,
  TOKEN_STORAGE_KEY,
  type UserInfo,
} from '@uiot/contracts';
import { call, requestClient } from '../request/index.ts';
import { readItem, readJson, writeItem, writeJson } from '../store/storage.ts';
import { createStore, useStore } from '../store/store.ts';
import { currentBrowserPath } from './login-path.ts';

/** Session storage keys of spec §9 (`user.pwd` is deliberately never kept). */
const USER_ID_KEY = 'user.id';
const USER_NAME_KEY = 'user.name';
const FEATURE_FLAGS_KEY = 'sys_params';
const STATION_ID_KEY = 'sys.stationId';

export type FeatureFlags = Record<string, string>;

export interface SessionState {
  token: string | null;
  user: UserInfo | null;
  flags: FeatureFlags;
  stationId: string | null;
  /** Rises on every sign-in and sign-out: the console builds its routes afresh for each. */
  epoch: number;
}

export const session = createStore<SessionState>({
  token: readItem('local', TOKEN_STORAGE_KEY),
  user: null,
  flags: readJson<FeatureFlags>('session', FEATURE_FLAGS_KEY) ?? {},
  stationId: readItem('session', STATION_ID_KEY),
  epoch: 0,
});

/** Where the browser lands once the routes of the new epoch are built. */
let landingPath: string | null = null;

export function takeLandingPath(): string | null {
  const path = landingPath;
  landingPath = null;
  return path;
}

export function getToken(): string | null {
  return session.get().token;
}

export function setStationId(stationId: string): void {
  writeItem('session', STATION_ID_KEY, stationId);
  session.set((state) => ({ ...state, stationId }));
}

function clearStoredSession(): void {
  writeItem('local', TOKEN_STORAGE_KEY, null);
  writeItem('session', USER_ID_KEY, null);
  writeItem('session', USER_NAME_KEY, null);
  writeItem('session', FEATURE_FLAGS_KEY, null);
}

async function fetchSessionData(): Promise<{ user: UserInfo; flags: FeatureFlags }> {
  const [user, flags] = await Promise.all([
    call(getUserInfo, undefined, { canCancel: false }),
    call(getFeatureFlags, undefined, { canCancel: false }),
  ]);
  return { user, flags };
}

function commit(user: UserInfo, flags: FeatureFlags, landing: string | null): void {
  writeItem('session', USER_ID_KEY, user.id);
  writeItem('session', USER_NAME_KEY, user.name);
  writeJson('session', FEATURE_FLAGS_KEY, flags);
  landingPath = landing;
  session.set((state) => ({ ...state, user, flags, epoch: state.epoch + 1 }));
}

let restoring: Promise<UserInfo> | null = null;

/**
 * The user and flags for the stored token: after a reload, or once the first-sign-in password change is done
 * (then `landing` is where the console goes). Throws when the token is no longer valid.
 */
export function restoreSession(landing: string | null = null): Promise<UserInfo> {
  restoring ??= fetchSessionData()
    .then(({ user, flags }) => {
      commit(user, flags, landing);
      return user;
    })
    .finally(() => {
      restoring = null;
    });
  return restoring;
}

/**
 * The server refuses calls until the forced first-sign-in password change is done (e.g. the parameter was
 * switched on during the session): reload the user, whose `mustChangePassword` then holds the console at the
 * change-password dialog; once changed, the console returns to where it was.
 */
export function holdForPasswordChange(): void {
  restoreSession(currentBrowserPath()).catch(() => {
    // The request layer has shown why the user could not be reloaded (or ended the expired session).
  });
}

/**
 * Signs in (spec §4 Login): stores the token, fetches the user and the feature flags. `landing` is where the
 * console goes next, unless the user must first change the password.
 */
export async function signIn(form: LoginForm, landing: string): Promise<UserInfo> {
  const result = await call(loginCheck, { body: form }, { noToken: true, canCancel: false });
  writeItem('local', TOKEN_STORAGE_KEY, result.token);
  requestClient().markSignedIn();
  session.set((state) => ({ ...state, token: result.token }));
  try {
    const { user, flags } = await fetchSessionData();
    commit(user, flags, user.mustChangePassword ? null : landing);
    return user;
  } catch (error) {
    clearStoredSession();
    session.set((state) => ({ ...state, token: null, user: null }));
    throw error;
  }
}

/** Reloads the signed-in user after a change of its own information (routes are kept). */
export async function refreshUser(): Promise<void> {
  const user = await call(getUserInfo);
  session.set((state) => ({ ...state, user }));
}

/**
 * Signs out: cancels every pending call, revokes the session on the server when asked, clears what the
 * browser keeps and lands on `landing` (the login page).
 */
export async function signOut({
  revoke = true,
  landing,
}: {
  revoke?: boolean;
  landing: string;
}): Promise<void> {
  const client = requestClient();
  client.beginSignOut();
  try {
    if (revoke && getToken()) {
      await call(logout, undefined, { silent: true, canCancel: false, noOverlay: true }).catch(() => null);
    }
  } finally {
    clearStoredSession();
    landingPath = landing;
    session.set((state) => ({ ...state, token: null, user: null, flags: {}, epoch: state.epoch + 1 }));
    client.endSignOut();
  }
}

/** Forgets a session that could not be restored (spec §4: reset the token, go to the login page). */
export function abandonSession(landing: string): void {
  clearStoredSession();
  landingPath = landing;
  session.set((state) => ({ ...state, token: null, user: null, flags: {}, epoch: state.epoch + 1 }));
}

/** Keeps a token handed over by another system (`/auth-redirect`); the session is restored on the next load. */
export function adoptToken(token: string): void {
  writeItem('local', TOKEN_STORAGE_KEY, token);
  session.set((state) => ({ ...state, token, user: null }));
}

export function useSession(): SessionState {
  return useStore(session);
}

export function useCurrentUser(): UserInfo | null {
  return useStore(session, (state) => state.user);
}

export function useFeatureFlags(): FeatureFlags {
  return useStore(session, (state) => state.flags);
}
