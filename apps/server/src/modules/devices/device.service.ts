import { randomUUID } from 'node:crypto';
import {
  type AttachmentForm,
  type AttachmentRow,
  type BatchAddForm,
  batchNames,
  type DeviceCategory,
  type DeviceCredential,
  type DeviceForm,
  type DeviceRow,
  type DeviceSearch,
  type FieldIssue,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import type { DeviceCredentials } from '../iot/device-credentials.ts';
import { departmentExists } from '../org/department.repository.ts';
import { staffExists } from '../org/staff.repository.ts';
import type { ParamService } from '../params/param.service.ts';
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
import { requireFeature } from './feature-gate.ts';
import {
  attachmentPlaceRefusal,
  deletionRefusal,
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

  query(search: DeviceSearch & PageQuery): Promise<Page<DeviceRow>> {
    return queryDevices(this.db, search, search);
  }

  async get(id: string): Promise<DeviceRow> {
    const row = await deviceRowById(this.db, id);
    if (!row) throw new AppError(ResultCode.NotFound);
    return row;
  }

  /** A new device is unregistered; its category defaults to its type's, its station is its unit's. */
  create(form: DeviceForm): Promise<{ id: string }> {
    return this.identifying(form, async (tx) => {
      const { category, stationId } = await this.placement(tx, form);
      await this.checkFree(tx, form);
      return { id: await insertDevice(tx, deviceFormColumns(form, category, stationId)) };
    });
  }

  update(form: DeviceForm & { id: string }): Promise<void> {
    return this.identifying(form, async (tx) => {
      const current = await deviceState(tx, form.id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      if (current.mainDeviceId !== null) throw new AppError(ResultCode.NotAMainDevice);
      const { category, stationId } = await this.placement(tx, form);
      await this.checkFree(tx, form, form.id);
      await updateDeviceRow(tx, form.id, deviceFormColumns(form, category, stationId));
      if (current.unitId !== form.unitId || current.stationId !== stationId) {
        await moveAttachments(tx, form.id, form.unitId, stationId);
      }
    });
  }

  /** Devices named `{prefix}{n}` and described `{descPrefix}{n}`, all or none; ids in the batch's order. */
  batchCreate(form: BatchAddForm): Promise<{ ids: string[] }> {
    return this.db.transaction(async (tx) => {
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

  /** Lock codes, correction values and the permanent password go with the device. */
  remove(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      refuse(deletionRefusal(current, await attachmentCountOf(tx, id)));
      await deleteDeviceRow(tx, id);
    });
  }

  /** Registers a device; one with a code receives its broker / TcpDirect credential (returned once). */
  async register(id: string): Promise<DeviceCredential | null> {
    const issued = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      refuse(registrationRefusal(current, true));
      return registerWithCredential(tx, this.credentials, id);
    });
    issued.announce();
    return issued.credential;
  }

  /** Cancels a registration; the device's credential stops working at once. */
  async unregister(id: string): Promise<void> {
    const announce = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      refuse(registrationRefusal(current, false));
      return unregisterWithCredential(tx, this.credentials, id);
    });
    announce();
  }

  /** Issues a new secret to a registered device with a code; the old one stops working at once. */
  async resetSecret(id: string): Promise<DeviceCredential> {
    const issued = await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      if (!current.regist) throw new AppError(ResultCode.DeviceNotRegistered);
      return this.credentials.issue(tx, id);
    });
    if (!issued.credential) throw new AppError(ResultCode.DeviceWithoutCode);
    issued.announce();
    return issued.credential;
  }

  /** Clears the IMEI and IMSI so a new module can be fitted (ShowResetImei). */
  async resetImei(id: string): Promise<void> {
    await requireFeature(this.params, 'ShowResetImei');
    await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current) throw new AppError(ResultCode.NotFound);
      refuse(resetImeiRefusal(current));
      await updateDeviceRow(tx, id, { imei: null, imsi: null });
    });
  }

  async attachments(mainDeviceId: string): Promise<AttachmentRow[]> {
    await requireFeature(this.params, 'SupportAttachment');
    refuse(attachmentPlaceRefusal(await deviceState(this.db, mainDeviceId)));
    return listAttachments(this.db, mainDeviceId);
  }

  async createAttachment(form: AttachmentForm): Promise<{ id: string }> {
    await requireFeature(this.params, 'SupportAttachment');
    return this.identifying(form, async (tx) => {
      const main = await deviceState(tx, form.mainDeviceId, 'share');
      refuse(attachmentPlaceRefusal(main));
      const category = await this.categoryOf(tx, form);
      await this.checkFree(tx, form);
      return { id: await insertDevice(tx, attachmentColumns(form, category, main!)) };
    });
  }

  /** An attached device may move under another main device; it takes that device's unit. */
  async updateAttachment(form: AttachmentForm & { id: string }): Promise<void> {
    await requireFeature(this.params, 'SupportAttachment');
    await this.identifying(form, async (tx) => {
      const current = await deviceState(tx, form.id, 'update');
      if (!current || current.mainDeviceId === null) throw new AppError(ResultCode.NotFound);
      const main = await deviceState(tx, form.mainDeviceId, 'share');
      refuse(attachmentPlaceRefusal(main));
      const category = await this.categoryOf(tx, form);
      await this.checkFree(tx, form, form.id);
      await updateDeviceRow(tx, form.id, attachmentColumns(form, category, main!));
    });
  }

  async removeAttachment(id: string): Promise<void> {
    await requireFeature(this.params, 'SupportAttachment');
    await this.db.transaction(async (tx) => {
      const current = await deviceState(tx, id, 'update');
      if (!current || current.mainDeviceId === null) throw new AppError(ResultCode.NotFound);
      await deleteDeviceRow(tx, id);
    });
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
