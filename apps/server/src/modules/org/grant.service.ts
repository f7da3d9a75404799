import {
  ADMIN_ROLE_ID,
  ALL_PERMISSIONS,
  devTypeOfKey,
  type FieldIssue,
  type GrantSubject,
  isPermissionKey,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { grantedKeys, replaceGrants, subjectExists } from './grant.repository.ts';
import { grantRefused } from './grant-checks.ts';
import { type Grantor, mergeGrantSet } from './grant-rule.ts';
import { refuseRoleAction } from './role.service.ts';
import { staffExists } from './staff.repository.ts';
import { loadStaffAccess } from './staff-access.repository.ts';
import { refuseStaffAction } from './staff-policy.ts';

export interface GrantSubjectRef {
  subjectType: GrantSubject;
  subjectId: string;
}

export interface Grants {
  keys: string[];
  /** True for role `admin` (and its holders): every key, present and future. */
  all: boolean;
}

/**
 * Holds the named device types until the transaction ends and answers those that exist (the devices
 * module's repository, handed in when the services are built).
 */
export type HoldDeviceTypes = (tx: Db, ids: readonly string[]) => Promise<Set<string>>;

/** A subject's grants, with what the asking user may change of them (the console offers only those). */
export interface EditableGrants extends Grants {
  /** The keys the user may give or take: the user's own (`all`: every key, for role `admin`). */
  grantable: Grants;
}

/**
 * The keys that are neither a permission key of the contract nor the DevTypeOp key of an existing device
 * type (spec §6). The types named are held until the transaction ends, so none is deleted before the
 * grant is written.
 */
async function ungrantableKeys(
  db: Db,
  holdDeviceTypes: HoldDeviceTypes,
  keys: readonly string[],
): Promise<FieldIssue[]> {
  const typeIds = keys.flatMap((key) => (isPermissionKey(key) ? [] : (devTypeOfKey(key) ?? [])));
  const types = await holdDeviceTypes(db, typeIds);
  return keys.flatMap((key, index) => {
    const typeId = isPermissionKey(key) ? null : devTypeOfKey(key);
    const grantable = isPermissionKey(key) || (typeId !== null && types.has(typeId));
    return grantable ? [] : [{ path: `keys.${index}`, message: 'v.invalid', value: key }];
  });
}

const isAdminRole = (s: GrantSubjectRef) => s.subjectType === 'Role' && s.subjectId === ADMIN_ROLE_ID;

/** Permission keys granted to roles, staff members and departments (spec §6). */
export class GrantService {
  constructor(
    private readonly db: Db,
    private readonly holdDeviceTypes: HoldDeviceTypes,
  ) {}

  async get(user: Grantor, subject: GrantSubjectRef): Promise<EditableGrants> {
    const grantable: Grants = user.isAdmin
      ? { keys: [...ALL_PERMISSIONS].sort(), all: true }
      : { keys: [...user.permissions].sort(), all: false };
    if (isAdminRole(subject)) return { keys: [...ALL_PERMISSIONS].sort(), all: true, grantable };
    await this.requireSubject(this.db, subject);
    const keys = await grantedKeys(this.db, subject.subjectType, subject.subjectId);
    return { keys, all: false, grantable };
  }

  /**
   * Replaces the keys of a subject at once; every key must be one of the contract's, or the DevTypeOp key
   * of an existing device type (spec §6). Only the keys the user holds change (finding 8): the subject's
   * other keys stay as they were, and naming a key the user does not hold, and the subject has not, refuses
   * the whole save.
   */
  save(
    user: Grantor & { staffId: string },
    subject: GrantSubjectRef,
    keys: readonly string[],
  ): Promise<void> {
    if (subject.subjectType === 'Role') refuseRoleAction(subject.subjectId, 'grant');
    if (subject.subjectType === 'Staff') refuseStaffAction(user.staffId, subject.subjectId, 'grant');
    return this.db.transaction(async (tx) => {
      const unknown = await ungrantableKeys(tx, this.holdDeviceTypes, keys);
      if (unknown.length > 0) throw AppError.invalid(unknown);
      await this.requireSubject(tx, subject);
      // Two saves of one subject take turns, so neither merges over keys the other is replacing.
      await lockForTransaction(tx, `org.grants:${subject.subjectType}:${subject.subjectId}`);
      const current = await grantedKeys(tx, subject.subjectType, subject.subjectId);
      const merged = mergeGrantSet(user, current, keys);
      if (merged.refused.length > 0) throw grantRefused(merged.refused);
      await replaceGrants(tx, subject.subjectType, subject.subjectId, merged.keys);
    });
  }

  /** The keys a staff member holds through its roles, its own grants and its departments. */
  async effectiveOf(staffId: string): Promise<Grants> {
    if (!(await staffExists(this.db, staffId))) throw new AppError(ResultCode.UserNotFound);
    const access = await loadStaffAccess(this.db, staffId);
    return { keys: [...access.permissions].sort(), all: access.isAdmin };
  }

  private async requireSubject(db: Db, subject: GrantSubjectRef): Promise<void> {
    if (!(await subjectExists(db, subject.subjectType, subject.subjectId))) {
      throw new AppError(subject.subjectType === 'Staff' ? ResultCode.UserNotFound : ResultCode.NotFound);
    }
  }
}
