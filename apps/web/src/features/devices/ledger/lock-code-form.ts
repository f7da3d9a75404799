import type { LockCodeRow, lockCodeForm } from '@uiot/contracts';
import type { z } from 'zod';

export type LockCodeFormInput = z.input<typeof lockCodeForm>;

/** Values of a new lock code of a device: in effect, no time limits. */
export function newLockCodeValues(deviceId: string): Partial<LockCodeFormInput> {
  return { deviceId, effect: true, effectiveTime: null, expirationTime: null };
}

export function lockCodeToForm(row: LockCodeRow): Partial<LockCodeFormInput> {
  return {
    deviceId: row.deviceId,
    dnbs: row.dnbs,
    rfidCode: row.rfidCode,
    rfidType: row.rfidType,
    blueAddr: row.blueAddr,
    effect: row.effect,
    effectiveTime: row.effectiveTime,
    expirationTime: row.expirationTime,
    remark: row.remark,
  };
}

/** The RFID as it is stored: upper-cased (spec §5); the picker of the field shows it so while typed. */
export const upperCased = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);
