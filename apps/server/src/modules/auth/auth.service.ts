import {
  ADMIN_STAFF_ID,
  type ChangePasswordForm,
  type FeatureFlagValues,
  flattenMenus,
  type LoginForm,
  MENU_CATALOGUE,
  type MenuRight,
  type MyInfoForm,
  Permission,
  passwordIssueKeys,
  permittedMenus,
  ResultCode,
  type UserInfo,
} from '@uiot/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { hashPassword, spendVerificationTime, verifyPassword } from '../../lib/password-hash.ts';
import { loginLog } from '../admin/logs.schema.ts';
import { loadStaffAccess, roleNamesSql } from '../org/index.ts';
import { department, staff, station } from '../org/org.schema.ts';
import type { ParamService } from '../params/index.ts';
import { runThrottled } from './login-throttle.repository.ts';
import { ACCOUNT_ADDRESS_POLICY, ACCOUNT_POLICY, ADDRESS_POLICY } from './login-throttle.ts';
import type { SessionService } from './session.service.ts';
import type { UserProfile } from './session-cache.ts';

/**
 * The counters of a password guess (docs/security.md, *Sign-in throttling*): the account from this address,
 * the address whatever the account, and the account from every address. `account` names what is guessed:
 * the sign-in name, or the staff id whose old password a password change checks. An address holds no `/`,
 * so `{address}/{account}` names one pair.
 */
function guessKeys(kind: 'account' | 'password-change', account: string, ipAddr: string) {
  const pair = `${kind}-address:${ipAddr}/${account}`;
  return {
    keys: [
      { key: pair, policy: ACCOUNT_ADDRESS_POLICY },
      { key: `address:${ipAddr}`, policy: ADDRESS_POLICY },
      { key: `${kind}:${account}`, policy: ACCOUNT_POLICY },
    ],
    /** A right password forgets the failures of its own address only: the bound over all addresses stays. */
    clearOnSuccess: [pair],
  };
}

/** The menus of a user: those its keys open, of the features that are on (spec §6). */
function menuNames(permissions: ReadonlySet<string>, flags: FeatureFlagValues): string[] {
  return flattenMenus(permittedMenus(MENU_CATALOGUE, permissions, flags)).map((m) => m.name);
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
    private readonly params: Pick<ParamService, 'featureFlags'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Signs in. Throttling runs per account name and address, per address and per account name in the same
   * locked step as the password check (so a burst of parallel guesses is counted guess by guess), and the
   * answer is the same whether or not the account exists.
   */
  async login(form: LoginForm, ipAddr: string) {
    const now = this.now();
    const throttle = guessKeys('account', form.name.trim().toLowerCase(), ipAddr);
    const outcome = await runThrottled(
      this.db,
      throttle.keys,
      now,
      async (tx) => {
        const [found] = await tx
          .select({ id: staff.id, name: staff.name, passwordHash: staff.passwordHash, status: staff.status })
          .from(staff)
          .where(sql`lower(${staff.name}) = ${form.name.trim().toLowerCase()}`);
        const valid = found ? await verifyPassword(found.passwordHash, form.pwd) : false;
        if (!found) await spendVerificationTime(form.pwd);
        return { failed: !valid, value: valid ? found : undefined };
      },
      throttle.clearOnSuccess,
    );
    if (outcome.locked) {
      throw new AppError(ResultCode.LoginLocked, {
        params: { seconds: Math.ceil(outcome.retryAfterMs / 1000) },
      });
    }
    const user = outcome.value;
    if (!user) throw new AppError(ResultCode.LoginFailed);
    if (user.status === 'pending') throw new AppError(ResultCode.AccountPending);
    if (user.status === 'rejected') throw new AppError(ResultCode.AccountRejected);
    if (user.status !== 'activated') throw new AppError(ResultCode.AccountDisabled);
    const { token, tokenHash } = await this.sessions.create(user.id, ipAddr);
    await this.db
      .insert(loginLog)
      .values({ userId: user.id, userName: user.name, loginTime: now, ipAddr, sessionHash: tokenHash });
    return { userId: user.id, userName: user.name, token, timeout: this.sessions.idleSeconds };
  }

  async logout(user: SessionUser): Promise<void> {
    await this.sessions.revoke(user.tokenHash);
    await this.db
      .update(loginLog)
      .set({ logoutTime: this.now() })
      .where(and(eq(loginLog.sessionHash, user.tokenHash), isNull(loginLog.logoutTime)));
  }

  /** Menus and permission keys of a user; another user's only with staff.read. */
  async menuRight(user: SessionUser, staffId: string | undefined): Promise<MenuRight> {
    if (!staffId || staffId === user.staffId) {
      const flags = await this.params.featureFlags();
      return { menus: menuNames(user.permissions, flags), permissions: [...user.permissions].sort() };
    }
    if (!user.permissions.has(Permission.StaffRead)) throw new AppError(ResultCode.Forbidden);
    const [exists] = await this.db.select({ id: staff.id }).from(staff).where(eq(staff.id, staffId));
    if (!exists) throw new AppError(ResultCode.UserNotFound);
    const access = await loadStaffAccess(this.db, staffId);
    const flags = await this.params.featureFlags();
    return { menus: menuNames(access.permissions, flags), permissions: [...access.permissions].sort() };
  }

  /** Whether a user still has to replace the initial password (ChangePwdByFirstLogin). */
  async isFirstLogin(user: SessionUser, staffId: string | undefined): Promise<boolean> {
    const id = staffId ?? user.staffId;
    if (id !== user.staffId && !user.permissions.has(Permission.StaffRead)) {
      throw new AppError(ResultCode.Forbidden);
    }
    const [row] = await this.db
      .select({ mustChangePassword: staff.mustChangePassword })
      .from(staff)
      .where(eq(staff.id, id));
    if (!row) throw new AppError(ResultCode.UserNotFound);
    return id !== ADMIN_STAFF_ID && row.mustChangePassword;
  }

  /**
   * The signed-in user's profile, roles, menus and keys, in one round trip: the console asks for it on every
   * start. Menus, keys and the forced-change hold come from the session, as the guard sees them.
   */
  async userInfo(user: SessionUser): Promise<UserInfo> {
    const profile = await this.sessions.profile(user.tokenHash, () => this.readProfile(user.staffId));
    if (!profile) throw new AppError(ResultCode.Unauthenticated);
    const isBuiltInAdmin = user.staffId === ADMIN_STAFF_ID;
    return {
      id: user.staffId,
      name: profile.name,
      avatar: profile.avatar,
      email: profile.email,
      telNo: profile.telNo,
      deptName: profile.deptName,
      roles: profile.roleNames,
      menus: menuNames(user.permissions, await this.params.featureFlags()),
      permissions: [...user.permissions].sort(),
      isFirstLogin: !isBuiltInAdmin && profile.mustChangePassword,
      mustChangePassword: user.mustChangePassword,
      isBuiltInAdmin,
      stationId: profile.stationId ?? '',
    };
  }

  private async readProfile(staffId: string): Promise<UserProfile | null> {
    const [row] = await this.db
      .select({
        name: staff.name,
        avatar: staff.avatar,
        email: staff.email,
        telNo: staff.telNo,
        deptName: department.name,
        roleNames: roleNamesSql(sql`${staff.id}`),
        mustChangePassword: staff.mustChangePassword,
        stationId: sql<string | null>`(select ${station.id} from ${station} limit 1)`,
      })
      .from(staff)
      .leftJoin(department, eq(department.id, staff.deptId))
      .where(eq(staff.id, staffId));
    return row ?? null;
  }

  /**
   * Changes the signed-in user's password and revokes the user's other sessions. Wrong old passwords are
   * throttled as sign-in is, with counters of their own per account (so a stolen session cannot guess the
   * password behind it, nor lock the owner's change from another address).
   */
  async changePassword(user: SessionUser, form: ChangePasswordForm, ipAddr: string): Promise<void> {
    if (user.staffId === ADMIN_STAFF_ID) throw new AppError(ResultCode.PasswordChangeForbidden);
    // The rule of a new staff member's password (StrongPassword), checked before the old password is, so a
    // refused new password costs no guess.
    const strong = (await this.params.featureFlags()).StrongPassword === 'true';
    const problems = passwordIssueKeys(form.newPwd, { strong, userName: user.staffName });
    if (problems.length > 0) {
      throw AppError.invalid(problems.map((message) => ({ path: 'newPwd', message })));
    }
    const throttle = guessKeys('password-change', user.staffId, ipAddr);
    const outcome = await runThrottled(
      this.db,
      throttle.keys,
      this.now(),
      async (tx) => {
        const [row] = await tx
          .select({ passwordHash: staff.passwordHash })
          .from(staff)
          .where(eq(staff.id, user.staffId));
        const valid = row ? await verifyPassword(row.passwordHash, form.oldPwd) : false;
        return { failed: !valid, value: valid };
      },
      throttle.clearOnSuccess,
    );
    if (outcome.locked) {
      throw new AppError(ResultCode.OldPasswordLocked, {
        params: { seconds: Math.ceil(outcome.retryAfterMs / 1000) },
      });
    }
    if (!outcome.value) throw new AppError(ResultCode.OldPasswordWrong);
    const now = this.now();
    await this.db
      .update(staff)
      .set({
        passwordHash: await hashPassword(form.newPwd),
        mustChangePassword: false,
        passwordChangedAt: now,
        updatedAt: now,
      })
      .where(eq(staff.id, user.staffId));
    await this.sessions.revokeAllOf(user.staffId, user.tokenHash);
  }

  async updateMyInfo(user: SessionUser, form: MyInfoForm): Promise<void> {
    if (user.staffId === ADMIN_STAFF_ID) throw new AppError(ResultCode.Forbidden);
    await this.db
      .update(staff)
      .set({ telNo: form.telNo || null, email: form.email, updatedAt: this.now() })
      .where(eq(staff.id, user.staffId));
  }
}
