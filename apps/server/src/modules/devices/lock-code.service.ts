import { type LockCodeForm, type LockCodeRow, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { deviceState } from './device.repository.ts';
import {
  deleteLockCodeRow,
  insertLockCode,
  listLockCodes,
  lockCodeDevice,
  rfidTaken,
  updateLockCodeRow,
} from './lock-code.repository.ts';

/** Writes of lock codes run one at a time, so two concurrent saves cannot both take an RFID. */
const RFID_LOCK = 'devices.lock-code-rfid';

const codeTaken = (code: string) => new AppError(ResultCode.CodeTaken, { params: { code } });

/**
 * Lock codes of main devices (spec §3 Lock code; the endpoints belong to SupportRfid); the RFID is unique
 * over the ledger.
 */
export class LockCodeService {
  constructor(private readonly db: Db) {}

  async ofDevice(deviceId: string): Promise<LockCodeRow[]> {
    await this.checkDevice(this.db, deviceId);
    return listLockCodes(this.db, deviceId);
  }

  async create(form: LockCodeForm): Promise<{ id: string }> {
    return this.writing(form.rfidCode, async (tx) => {
      await this.checkDevice(tx, form.deviceId, 'share');
      if (await rfidTaken(tx, form.rfidCode)) throw codeTaken(form.rfidCode);
      return { id: await insertLockCode(tx, form) };
    });
  }

  async update(form: LockCodeForm & { id: string }): Promise<void> {
    await this.writing(form.rfidCode, async (tx) => {
      if ((await lockCodeDevice(tx, form.id)) === undefined) throw new AppError(ResultCode.NotFound);
      await this.checkDevice(tx, form.deviceId, 'share');
      if (await rfidTaken(tx, form.rfidCode, form.id)) throw codeTaken(form.rfidCode);
      await updateLockCodeRow(tx, form.id, form);
    });
  }

  async remove(id: string): Promise<void> {
    if ((await lockCodeDevice(this.db, id)) === undefined) throw new AppError(ResultCode.NotFound);
    await deleteLockCodeRow(this.db, id);
  }

  /** The device must exist and be a main device; with `share`, it is kept from being deleted meanwhile. */
  private async checkDevice(db: Db, deviceId: string, lock?: 'share'): Promise<void> {
    const owner = await deviceState(db, deviceId, lock);
    if (!owner) throw new AppError(ResultCode.NotFound);
    if (owner.mainDeviceId !== null) throw new AppError(ResultCode.NotAMainDevice);
  }

  private async writing<T>(rfidCode: string, write: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, RFID_LOCK);
        return write(tx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(rfidCode);
      throw error;
    }
  }
}
