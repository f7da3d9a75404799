import {
  type FieldIssue,
  type Page,
  type PageQuery,
  Permission,
  passwordIssueKeys,
  ResultCode,
  type StaffCreateForm,
  type StaffListRow,
  type StaffRow,
  type StaffUpdateForm,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { FileContent, FileService } from '../../infra/files/file.service.ts';
import { generatePassword, hashPassword } from '../../lib/password-hash.ts';
import type { ParamService } from '../params/index.ts';
import { departmentExists } from './department.repository.ts';
import { accountsBeyond, checkAccountWithin, checkDepartmentMove, checkRoleChange } from './grant-checks.ts';
import { existingRoleIds } from './role.repository.ts';
import {
  activeStaffOptions,
  deleteStaffRow,
  insertStaff,
  queryStaff,
  replaceStaffRoles,
  roleIdsOf,
  SIGNATURE_REF,
  type StaffSearch,
  type StaffValues,
  staffDeptId,
  staffExists,
  staffNameTaken,
  staffRowById,
  updateStaffRow,
} from './staff.repository.ts';
import { refuseStaffAction, staffAbilitiesOf } from './staff-policy.ts';

/** Ends a user's sessions (disable, password reset): the auth module's session service. */
export interface SessionRevoker {
  revokeAllOf(staffId: string, keepTokenHash?: string): Promise<void>;
}

/** A signature: the id of an upload (kind signature), null to remove the signature, undefined to leave it. */
type SignatureInput = { signatureFileId?: string | null | undefined };

const signatureRef = (staffId: string) => ({ type: SIGNATURE_REF, id: staffId });

/**
 * Why a password is refused for a new staff member: the strong policy when the parameter StrongPassword
 * is on (spec §5), the change-password rule otherwise. Message keys, translated with the field issues.
 */
export function staffPasswordIssues(password: string, userName: string, strong: boolean): FieldIssue[] {
  return passwordIssueKeys(password, { strong, userName }).map((message) => ({ path: 'password', message }));
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/**
 * Changing roles needs staff.assignRole whichever endpoint carries them (otherwise staff.create or
 * staff.update would be a way round it), and every key of each role given or taken (finding 8: the admin
 * role's every key needs an administrator).
 */
async function authoriseRoleChange(
  db: Db,
  user: SessionUser,
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  if (sameSet(before, after)) return;
  if (!user.permissions.has(Permission.StaffAssignRole)) throw new AppError(ResultCode.Forbidden);
  await checkRoleChange(db, user, before, after);
}

const profileOf = (form: Omit<StaffUpdateForm, 'id' | 'roleIds'>): StaffValues => ({
  name: form.name,
  deptId: form.deptId === undefined ? undefined : form.deptId || null,
  age: form.age,
  sex: form.sex,
  email: form.email,
  telNo: form.telNo,
  address: form.address,
  notes: form.notes,
  faxNo: form.faxNo,
  rfidCode: form.rfidCode,
  staffType: form.staffType,
});

export class StaffService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionRevoker,
    private readonly params: ParamService,
    private readonly files: FileService,
  ) {}

  /** A page of staff, each row with what `user` may do with it. */
  async query(user: SessionUser, search: StaffSearch & PageQuery): Promise<Page<StaffListRow>> {
    const page = await queryStaff(this.db, search, search);
    const beyond = await accountsBeyond(
      this.db,
      user,
      page.rows.map((row) => row.id),
    );
    return {
      ...page,
      rows: page.rows.map((row) => ({
        ...row,
        abilities: staffAbilitiesOf(user.staffId, row.id, beyond.has(row.id)),
      })),
    };
  }

  /** Activated staff only, for selectors. */
  options(deptId?: string) {
    return activeStaffOptions(this.db, deptId);
  }

  async get(id: string): Promise<StaffRow> {
    const row = await staffRowById(this.db, id);
    if (!row) throw new AppError(ResultCode.UserNotFound);
    return row;
  }

  async roleIds(staffId: string): Promise<string[]> {
    if (!(await staffExists(this.db, staffId))) throw new AppError(ResultCode.UserNotFound);
    return roleIdsOf(this.db, staffId);
  }

  /** The signature image of a staff member; 404 when there is none. */
  async signature(id: string): Promise<FileContent> {
    if (!(await staffExists(this.db, id))) throw new AppError(ResultCode.UserNotFound);
    const [file] = await this.files.attachedTo(signatureRef(id));
    if (!file) throw new AppError(ResultCode.NotFound);
    return this.files.content(file);
  }

  /** A new staff member, who must change the password at first sign-in. */
  async create(user: SessionUser, form: StaffCreateForm & SignatureInput): Promise<{ id: string }> {
    const roleIds = form.roleIds ?? [];
    const strong = await this.params.getBoolean('StrongPassword');
    const issues = staffPasswordIssues(form.password, form.name, strong);
    return this.writing(form.name, () =>
      this.db.transaction(async (tx) => {
        await this.checkReferences(tx, form.deptId, roleIds, 'roleIds.', issues);
        await authoriseRoleChange(tx, user, [], roleIds);
        await checkDepartmentMove(tx, user, null, form.deptId || null);
        if (await staffNameTaken(tx, form.name)) throw nameTaken(form.name);
        const id = await insertStaff(tx, {
          ...profileOf(form),
          name: form.name,
          passwordHash: await hashPassword(form.password),
          status: 'activated',
          mustChangePassword: true,
        });
        await replaceStaffRoles(tx, id, roleIds);
        await this.replaceSignature(tx, user, id, form.signatureFileId);
        return { id };
      }),
    );
  }

  async update(user: SessionUser, form: StaffUpdateForm & SignatureInput): Promise<void> {
    refuseStaffAction(user.staffId, form.id, 'update');
    const issues: FieldIssue[] = [];
    const roleIds = form.roleIds;
    await this.writing(form.name, () =>
      this.db.transaction(async (tx) => {
        const deptBefore = await staffDeptId(tx, form.id);
        if (deptBefore === undefined) throw new AppError(ResultCode.UserNotFound);
        await checkAccountWithin(tx, user, form.id);
        await this.checkReferences(tx, form.deptId, roleIds ?? [], 'roleIds.', issues);
        if (await staffNameTaken(tx, form.name, form.id)) throw nameTaken(form.name);
        if (form.deptId !== undefined) await checkDepartmentMove(tx, user, deptBefore, form.deptId || null);
        if (roleIds) {
          await authoriseRoleChange(tx, user, await roleIdsOf(tx, form.id), roleIds);
          await replaceStaffRoles(tx, form.id, roleIds);
        }
        // The row is written (and locked) first: a concurrent change of the signature waits for this one.
        await updateStaffRow(tx, form.id, profileOf(form));
        await this.replaceSignature(tx, user, form.id, form.signatureFileId);
      }),
    );
  }

  /** With an id: update; without: create, which also needs staff.create. */
  async saveOrUpdate(user: SessionUser, form: StaffUpdateForm | StaffCreateForm): Promise<{ id: string }> {
    if ('id' in form) {
      await this.update(user, form);
      return { id: form.id };
    }
    if (!user.permissions.has(Permission.StaffCreate)) throw new AppError(ResultCode.Forbidden);
    return this.create(user, form);
  }

  async assignRoles(user: SessionUser, staffId: string, roleIds: readonly string[]): Promise<void> {
    refuseStaffAction(user.staffId, staffId, 'assignRoles');
    await this.db.transaction(async (tx) => {
      if (!(await staffExists(tx, staffId))) throw new AppError(ResultCode.UserNotFound);
      await this.checkReferences(tx, undefined, roleIds, '', []);
      await authoriseRoleChange(tx, user, await roleIdsOf(tx, staffId), roleIds);
      await replaceStaffRoles(tx, staffId, roleIds);
    });
  }

  /** Activates or disables an account; disabling ends every session of it at once. */
  async enable(user: SessionUser, id: string, enable: boolean): Promise<void> {
    refuseStaffAction(user.staffId, id, enable ? 'enable' : 'disable');
    if (!(await staffExists(this.db, id))) throw new AppError(ResultCode.UserNotFound);
    await checkAccountWithin(this.db, user, id);
    await updateStaffRow(this.db, id, { status: enable ? 'activated' : 'disabled' });
    if (!enable) await this.sessions.revokeAllOf(id);
  }

  /**
   * Sets a generated one-time password, returned once and never stored or logged in clear; the user must
   * change it at the next sign-in and every session of the user ends. Whoever sees the password can sign in
   * as the account: only a user holding every key of it may reset it (finding 8).
   */
  async resetPassword(user: SessionUser, id: string): Promise<{ password: string }> {
    refuseStaffAction(user.staffId, id, 'resetPwd');
    if (!(await staffExists(this.db, id))) throw new AppError(ResultCode.UserNotFound);
    await checkAccountWithin(this.db, user, id);
    const password = generatePassword();
    await updateStaffRow(this.db, id, {
      passwordHash: await hashPassword(password),
      mustChangePassword: true,
      passwordChangedAt: new Date(),
    });
    await this.sessions.revokeAllOf(id);
    return { password };
  }

  async remove(user: SessionUser, id: string): Promise<void> {
    refuseStaffAction(user.staffId, id, 'delete');
    await this.db.transaction(async (tx) => {
      if (!(await staffExists(tx, id))) throw new AppError(ResultCode.UserNotFound);
      await checkAccountWithin(tx, user, id);
      // The only reference that keeps a staff member is a key they hold (the devices they answer for let go).
      await deleteStaffRow(tx, id).catch((error: unknown) => {
        throw isForeignKeyViolation(error) ? new AppError(ResultCode.StaffHoldsKeys) : error;
      });
      await this.files.detach(tx, signatureRef(id));
    });
  }

  /** Adds the issues of the department and the roles to `issues`, then refuses the form if any. */
  private async checkReferences(
    db: Db,
    deptId: string | null | undefined,
    roleIds: readonly string[],
    rolePath: string,
    issues: FieldIssue[],
  ): Promise<void> {
    if (deptId && !(await departmentExists(db, deptId)))
      issues.push({ path: 'deptId', message: 'v.invalid' });
    const known = await existingRoleIds(db, roleIds);
    roleIds.forEach((roleId, index) => {
      if (!known.has(roleId)) issues.push({ path: `${rolePath}${index}`, message: 'v.invalid' });
    });
    if (issues.length > 0) throw AppError.invalid(issues);
  }

  /**
   * Spec §5, one signature per staff member: an upload of the caller's (kind signature, so png or jpg as
   * its content says) replaces the one there was, null removes it, undefined leaves it. What is replaced
   * is detached, and removed by the file store's sweep.
   */
  private async replaceSignature(
    tx: Db,
    user: SessionUser,
    staffId: string,
    fileId: string | null | undefined,
  ): Promise<void> {
    if (fileId === undefined) return;
    await this.files.detach(tx, signatureRef(staffId));
    if (fileId === null) return;
    await this.files.attach(tx, {
      id: fileId,
      ownerId: user.staffId,
      kind: 'signature',
      ref: signatureRef(staffId),
    });
  }

  /** Runs a write whose unique name may be taken by a concurrent one: 1021 rather than a failure. */
  private async writing<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }
}

const nameTaken = (name: string) => new AppError(ResultCode.NameTaken, { params: { name } });
