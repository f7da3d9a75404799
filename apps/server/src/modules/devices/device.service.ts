import { randomUUID } from 'node:crypto';
import {
  type AttachmentForm,
  type AttachmentRow,
  type BatchAddForm,
  batchNames,
  type DeviceCategory,
  type DeviceCredential,
  type DeviceData,
  type DeviceForm,
  type DeviceRow,
  type DeviceSearch,
  type FeatureFlagValues,
  type FieldIssue,
  FLAGGED_ATTACHMENT_FIELDS,
  FLAGGED_DEVICE_FIELDS,
  type FlaggedFields,
  flagOn,
  isIotDevice,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { featureDisabled } from '../../http/feature-gate.ts';
import { departmentExists, staffExists } from '../org/index.ts';
import type { ParamService } from '../params/index.ts';
import type { CredentialIssuer as DeviceCredentials } from './credential-issuer.ts';
import {
  attachmentColumns,
  attachmentCountOf,
  type DeviceIdentifiers,
  deleteDeviceRow,
  deviceFormColumns,
  deviceRowById,
  deviceState,
  identifierOfViolation,
  insertDevice,
  insertDevices,
  listAttachments,
  moveAttachments,
  queryDevices,
  setRegistration,
  takenIdentifier,
  typeCategory,
  unitForDevice,
  updateDeviceRow,
} from './device.repository.ts';
import { requireOperable, requireTypeOperable } from './device-operation.guard.ts';
import { type DeviceOperator, mayOperateDeviceType } from './device-operation.ts';
import {
  attachmentPlaceRefusal,
  deletionRefusal,
  flaggedFieldRefusal,
  registeredIdentityChanges,
  registrationRefusal,
  resetImeiRefusal,
} from './ledger-rules.ts';

/**
 * Writes that set a code, IMEI or devEUI run one at a time, so two concurrent saves cannot both take the
 * same one (the unique indexes stay the last line).
 */
const IDENTIFIER_LOCK = 'devices.ledger-identifiers';

const codeTaken = (code: string) => new AppError(ResultCode.CodeTaken, { params: { code } });
const refuse = (code: ResultCode | null) => {
  if (code !== null) throw new AppError(code);
};

/** The batch form's flagged field: the IoT platform of the devices added. */
const FLAGGED_BATCH_FIELDS = { SupportIoT: ['iotType'] } as const satisfies FlaggedFields<BatchAddForm>;

/**
 * Refuses (1104 naming the flag) a save that changes a field whose feature flag is off (`flaggedFieldRefusal`);
 * `id` names the device as stored, null for a new one. The device is read only when a flag is off.
 */
async function checkFlaggedFields<F extends object>(
  tx: Db,
  flags: FeatureFlagValues,
  fields: FlaggedFields<F>,
  id: string | null,
  form: F,
): Promise<void> {
  const names = Object.keys(fields) as (keyof typeof fields)[];
  if (names.every((name) => flagOn(flags, name))) return;
  const before = id ? ((await deviceRowById(tx, id)) ?? null) : null;
  const flag = flaggedFieldRefusal(flags, fields, before as Partial<Record<keyof F, unknown>> | null, form);
  if (flag) throw featureDisabled(flag);
}

/** A ledger row as `operator` sees it: its data and what the operator may do with the device. */
export function withAbilities(operator: DeviceOperator, data: DeviceData): DeviceRow {
  return { ...data, abilities: { operate: mayOperateDeviceType(operator, data) } };
}

/** A credential issued in a transaction, with the announcement to make once it has committed. */
type IssuedCredential = Awaited<ReturnType<DeviceCredentials['issue']>>;

/**
 * Registers a device in the caller's transaction and issues its broker / TcpDirect credential (a device
 * without a code gets none). The caller announces it after the commit, so that the broker and TcpDirect
 * drop sessions of an older secret only once the new one holds. Shared by the ledger and the lock
 * replacement's ReRegister step.
 */
export async function registerWithCredential(
  tx: Db,
  credentials: DeviceCredentials,
  id: string,
): Promise<IssuedCredential> {
  await setRegistration(tx, id, true);
  return credentials.issue(tx, id);
}

/**
 * Cancels a device's registration in the caller's transaction and withdraws its credential; the caller
 * runs the returned announcement after the commit, which disconnects the device from the broker and
 * TcpDirect. Shared by the ledger and the lock replacement's CancelRegistration step.
 */
export async function unregisterWithCredential(
  tx: Db,
  credentials: DeviceCredentials,
  id: string,
): Promise<() => void> {
  await setRegistration(tx, id, false);
  return credentials.withdraw(tx, id);
}

/** What a device is placed in and under: unit, type, department, staff member. */
interface Placement {
  unitId: string;
  typeId: string;
  category?: DeviceCategory | null | undefined;
  deptId?: string | null | undefined;
  staffId?: string | null | undefined;
}

/** The device ledger (spec §3 Device, Attached device; §4 registration; §5 device rules). */
export class DeviceService {
  constructor(
    private readonly db: Db,
    private readonly params: ParamService,
    private readonly credentials: DeviceCredentials,
  ) {}

  async query(search: DeviceSearch & PageQuery, operator: DeviceOperator): Promise<Page<DeviceRow>> {
    const page = await queryDevices(this.db, search, search);
    return { total: page.total, rows: page.rows.map((row) => withAbilities(operator, row)) };
  }

  async get(id: string, operator: DeviceOperator): Promise<DeviceRow> {
    const row = await deviceRowById(this.db, id);
    if (!row) throw new AppError(ResultCode.NotFound);
    return withAbilities(operator, row);
  }

  /** A new device is unregistered; its category defaults to its type's, its station is its unit's. */
  async create(form: DeviceForm): Promise<{ id: string }> {
    const flags = await this.flagsOf(FLAGGED_DEVICE_FIELDS);
    return this.identifying(form, async (tx) => {
      await checkFlaggedFields(tx, flags, FLAGGED_DEVICE_FIELDS, null, form);
      const { category, stationId } = await this.placement(tx, form);
      await this.checkFree(tx, form);
      return { id: await insertDevice(tx, deviceFormColumns(form, category, stationId)) };
    });
  }

  /**
   * A ledger change; one of the device's type is also an operation of the device (docs/security.md): the
   * grants that decide who registers it, resets its secrets or opens it are the type's, so the user needs
   * the DevTypeOp grant of the type it had and of the type it gets.
   */
  async update(form: DeviceForm & { id: string }, operator: DeviceOperator): Promise<void> {
    const flags = await this.flagsOf(FLAGGED_DEVICE_FIELDS);
    return this.identifying(form, async (tx) => {
      const current = await deviceState(tx, form.id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      if (current.mainDeviceId !== null) throw new AppError(ResultCode.NotAMainDevice);
      const identity = registeredIdentityChanges(current, form);
      if (identity.length > 0) {
        throw AppError.invalid(identity.map((path) => ({ path, message: 'v.registeredIdentity' })));
      }
      if (current.typeId !== form.typeId) {
        await requireOperable(tx, operator, [form.id]);
        await requireTypeOperable(tx, operator, form.typeId);
      }
      await checkFlaggedFields(tx, flags, FLAGGED_DEVICE_FIELDS, form.id, form);
      const { category, stationId } = await this.placement(tx, form);
      await this.checkFree(tx, form, form.id);
      await updateDeviceRow(tx, form.id, deviceFormColumns(form, category, stationId));
      if (current.unitId !== form.unitId || current.stationId !== stationId) {
        await moveAttachments(tx, form.id, form.unitId, stationId);
      }
    });
  }

  /** Devices named `{prefix}{n}` and described `{descPrefix}{n}`, all or none; ids in the batch's order. */
  async batchCreate(form: BatchAddForm): Promise<{ ids: string[] }> {
    const flags = await this.flagsOf(FLAGGED_BATCH_FIELDS);
    return this.db.transaction(async (tx) => {
      await checkFlaggedFields(tx, flags, FLAGGED_BATCH_FIELDS, null, form);
      const { category, stationId } = await this.placement(tx, form);
      const rows = batchNames(form).map(({ name, desc }) => ({
        id: randomUUID(),
        name,
        description: desc,
        unitId: form.unitId,
        typeId: form.typeId,
        category,
        stationId,
        iotType: form.iotType ?? null,
        deptId: form.deptId ?? null,
        staffId: form.staffId ?? null,
      }));
      await insertDevices(tx, rows);
      return { ids: rows.map((r) => r.id) };
    });
  }

  /**
   * Lock codes, correction values and the permanent password go with the device. Its alarms, commands,
   * replacements and lock-task items are records the database keeps it for (`restrict`): a device with any
   * is refused (DeviceHasRecords) and is marked not working instead.
   */
  remove(id: string): Promise<void> {
    return keepingRecords(
      this.db.transaction(async (tx) => {
        const current = await deviceState(tx, id, 'update');
        if (!current) throw new AppError(ResultCode.NotFound);
        refuse(deletionRefusal(current, await attachmentCountOf(tx, id)));
        await deleteDeviceRow(tx, id);
      }),
    );
  }

  /**
   * Registers a device; one with a code receives its broker / TcpDirect credential (returned once). An IoT
   * lock is registered only while SupportIoT is on.
   */
  async register(id: string, operator: DeviceOperator): Promise<DeviceCredential | null> {
    const iotManaged = await this.params.getBoolean('SupportIoT');
    const issued = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      await requireOperable(tx, operator, [id]);
      refuse(registrationRefusal(current, true));
      if (!iotManaged && isIotDevice(current)) throw featureDisabled('SupportIoT');
      return registerWithCredential(tx, this.credentials, id);
    });
    issued.announce();
    return issued.credential;
  }

  /** Cancels a registration; the device's credential stops working at once. */
  async unregister(id: string, operator: DeviceOperator): Promise<void> {
    const announce = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      await requireOperable(tx, operator, [id]);
      refuse(registrationRefusal(current, false));
      return unregisterWithCredential(tx, this.credentials, id);
    });
    announce();
  }

  /** Issues a new secret to a registered device with a code; the old one stops working at once. */
  async resetSecret(id: string, operator: DeviceOperator): Promise<DeviceCredential> {
    const issued = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      await requireOperable(tx, operator, [id]);
      if (!current.regist) throw new AppError(ResultCode.DeviceNotRegistered);
      return this.credentials.issue(tx, id);
    });
    if (!issued.credential) throw new AppError(ResultCode.DeviceWithoutCode);
    issued.announce();
    return issued.credential;
  }

  /** A new offline-PIN secret for a registered device, answered once (docs/offline-pins.md). */
  async resetPinSecret(id: string, operator: DeviceOperator): Promise<{ pinSecret: string }> {
    const issued = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      await requireOperable(tx, operator, [id]);
      const reset = current.regist ? await this.credentials.resetPinSecret(tx, id) : null;
      if (!reset) throw new AppError(ResultCode.DeviceNotRegistered);
      return reset;
    });
    issued.announce();
    return { pinSecret: issued.secret };
  }

  /** Clears the IMEI and IMSI so a new module can be fitted (ShowResetImei). */
  async resetImei(id: string, operator: DeviceOperator): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      await requireOperable(tx, operator, [id]);
      refuse(resetImeiRefusal(current));
      await updateDeviceRow(tx, id, { imei: null, imsi: null });
    });
  }

  async attachments(mainDeviceId: string): Promise<AttachmentRow[]> {
    refuse(attachmentPlaceRefusal(await deviceState(this.db, mainDeviceId)));
    return listAttachments(this.db, mainDeviceId);
  }

  async createAttachment(form: AttachmentForm): Promise<{ id: string }> {
    const flags = await this.flagsOf(FLAGGED_ATTACHMENT_FIELDS);
    return this.identifying(form, async (tx) => {
      await checkFlaggedFields(tx, flags, FLAGGED_ATTACHMENT_FIELDS, null, form);
      const main = await deviceState(tx, form.mainDeviceId, 'share');
      refuse(attachmentPlaceRefusal(main));
      const category = await this.categoryOf(tx, form);
      await this.checkFree(tx, form);
      return { id: await insertDevice(tx, attachmentColumns(form, category, main!)) };
    });
  }

  /** An attached device may move under another main device; it takes that device's unit. */
  async updateAttachment(form: AttachmentForm & { id: string }): Promise<void> {
    const flags = await this.flagsOf(FLAGGED_ATTACHMENT_FIELDS);
    await this.identifying(form, async (tx) => {
      const current = await deviceState(tx, form.id, 'update');
      if (!current || current.mainDeviceId === null) throw new AppError(ResultCode.NotFound);
      await checkFlaggedFields(tx, flags, FLAGGED_ATTACHMENT_FIELDS, form.id, form);
      const main = await deviceState(tx, form.mainDeviceId, 'share');
      refuse(attachmentPlaceRefusal(main));
      const category = await this.categoryOf(tx, form);
      await this.checkFree(tx, form, form.id);
      await updateDeviceRow(tx, form.id, attachmentColumns(form, category, main!));
    });
  }

  async removeAttachment(id: string): Promise<void> {
    await keepingRecords(
      this.db.transaction(async (tx) => {
        const current = await deviceState(tx, id, 'update');
        if (!current || current.mainDeviceId === null) throw new AppError(ResultCode.NotFound);
        await deleteDeviceRow(tx, id);
      }),
    );
  }

  /** The values of the flags of flagged fields, read before a transaction (not on its connection). */
  private flagsOf<F>(fields: FlaggedFields<F>): Promise<FeatureFlagValues> {
    return this.params.getValues(Object.keys(fields));
  }

  /** The unit, type, department and staff member must exist; all missing ones are named at once. */
  private async placement(tx: Db, form: Placement) {
    const issues: FieldIssue[] = [];
    const unit = await unitForDevice(tx, form.unitId);
    if (!unit) issues.push({ path: 'unitId', message: 'v.invalid' });
    const typeCat = await typeCategory(tx, form.typeId);
    if (!typeCat) issues.push({ path: 'typeId', message: 'v.invalid' });
    if (form.deptId && !(await departmentExists(tx, form.deptId))) {
      issues.push({ path: 'deptId', message: 'v.invalid' });
    }
    if (form.staffId && !(await staffExists(tx, form.staffId))) {
      issues.push({ path: 'staffId', message: 'v.invalid' });
    }
    if (!unit || !typeCat || issues.length > 0) throw AppError.invalid(issues);
    return { stationId: unit.stationId, category: form.category ?? typeCat };
  }

  /** The category given, or the type's when none is. */
  private async categoryOf(tx: Db, form: Pick<Placement, 'typeId' | 'category'>): Promise<DeviceCategory> {
    const typeCat = await typeCategory(tx, form.typeId);
    if (!typeCat) throw AppError.invalid([{ path: 'typeId', message: 'v.invalid' }]);
    return form.category ?? typeCat;
  }

  private async checkFree(tx: Db, ids: DeviceIdentifiers, exceptId?: string): Promise<void> {
    const taken = await takenIdentifier(tx, ids, exceptId);
    if (taken !== undefined) throw codeTaken(taken);
  }

  /** A write that sets identifiers; a concurrent writer that skipped the lock still answers 1103. */
  private async identifying<T>(ids: DeviceIdentifiers, write: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, IDENTIFIER_LOCK);
        return write(tx);
      });
    } catch (error) {
      const taken = identifierOfViolation(error, ids);
      if (taken !== undefined) throw codeTaken(taken);
      throw error;
    }
  }
}

/** A deletion refused by a record that keeps the device (a foreign key that restricts) answers DeviceHasRecords. */
async function keepingRecords(deletion: Promise<void>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError(ResultCode.DeviceHasRecords);
    throw error;
  }
}
