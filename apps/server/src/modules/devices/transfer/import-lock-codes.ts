import { type LockCodeForm, lockCodeForm, lockRfid } from '@uiot/contracts';
import { importTime, yesNo } from './import-cells.ts';
import {
  cellOf,
  FirstRows,
  fieldValue,
  type ParsedRows,
  type ResolvedRows,
  type RowIssue,
  type SheetRow,
  schemaIssues,
  textOf,
  uniqueIssue,
} from './import-rows.ts';
import { LOCK_CODE_COLUMNS } from './import-sheets.ts';

/** A lock-code row read against the lock-code form, with the device it names. */
export interface ParsedLockCode {
  row: number;
  form: LockCodeForm | undefined;
  /** The device's code, or its exact name. */
  device: string;
  /** The RFID upper-cased, when its format is right. */
  rfid: string | undefined;
}

const columnKeys = new Set(LOCK_CODE_COLUMNS.map((c) => c.key));
const lockCodeColumnOf = (field: string) =>
  field === 'deviceId' ? 'device' : columnKeys.has(field) ? field : null;

const TEXT_FIELDS = ['dnbs', 'rfidCode', 'rfidType', 'blueAddr', 'remark'];

export function parseLockCodeRows(rows: readonly SheetRow[]): ParsedRows<ParsedLockCode> {
  const parsed: ParsedLockCode[] = [];
  const issues: RowIssue[] = [];
  for (const row of rows) {
    const device = textOf(row, 'device');
    if (device === '') issues.push({ row: row.row, column: 'device', key: 'v.required' });
    const effect = yesNo(cellOf(row, 'effect'));
    if (effect === undefined) issues.push({ row: row.row, column: 'effect', key: 'import.yesNo' });
    const input: Record<string, unknown> = {
      // The form asks for the device's id; the device is looked up by its code or name afterwards.
      deviceId: 'device',
      effect: effect ?? true,
      effectiveTime: importTime(cellOf(row, 'effectiveTime')),
      expirationTime: importTime(cellOf(row, 'expirationTime')),
    };
    for (const field of TEXT_FIELDS) input[field] = textOf(row, field);
    const result = lockCodeForm.safeParse(input);
    if (!result.success) issues.push(...schemaIssues(row.row, result.error, lockCodeColumnOf));
    parsed.push({
      row: row.row,
      form: result.success ? result.data : undefined,
      device,
      rfid: fieldValue(lockRfid, input.rfidCode),
    });
  }
  return { parsed, issues };
}

/** A device as a lock code sees it: only main devices carry lock codes. */
export interface LockedDevice {
  id: string;
  mainDeviceId: string | null;
}

export interface LockCodeRefs {
  /** Devices by code (codes are unique). */
  byCode: ReadonlyMap<string, LockedDevice>;
  /** Devices by exact name (names may repeat). */
  byName: ReadonlyMap<string, readonly LockedDevice[]>;
  /** RFIDs of the lock codes already in the ledger. */
  takenRfids: ReadonlySet<string>;
}

export interface NewLockCode {
  deviceId: string;
  form: LockCodeForm;
}

/**
 * A device by its code; when no device has that code, the one main device with that exact name. Lock
 * codes go on main devices only.
 */
function findDevice(
  refs: LockCodeRefs,
  value: string,
):
  | { device: LockedDevice }
  | { issue: 'import.deviceNotFound' | 'import.deviceAmbiguous' | 'import.notMainDevice' } {
  const byCode = refs.byCode.get(value);
  if (byCode) return byCode.mainDeviceId === null ? { device: byCode } : { issue: 'import.notMainDevice' };
  const named = refs.byName.get(value) ?? [];
  const mains = named.filter((d) => d.mainDeviceId === null);
  if (mains.length === 1) return { device: mains[0]! };
  if (mains.length > 1) return { issue: 'import.deviceAmbiguous' };
  return { issue: named.length > 0 ? 'import.notMainDevice' : 'import.deviceNotFound' };
}

/** Each row's device found, and its RFID checked unique over the ledger and the file. */
export function resolveLockCodeRows(
  parsed: readonly ParsedLockCode[],
  refs: LockCodeRefs,
): ResolvedRows<NewLockCode> {
  const issues: RowIssue[] = [];
  const accepted: NewLockCode[] = [];
  const firstRows = new FirstRows();
  for (const p of parsed) {
    const rowIssues: RowIssue[] = [];
    let device: LockedDevice | undefined;
    if (p.device !== '') {
      const found = findDevice(refs, p.device);
      if ('issue' in found) rowIssues.push({ row: p.row, column: 'device', key: found.issue });
      else device = found.device;
    }
    const rfidIssue = uniqueIssue(p.row, 'rfidCode', p.rfid, refs.takenRfids, firstRows);
    if (rfidIssue) rowIssues.push(rfidIssue);
    issues.push(...rowIssues);
    if (rowIssues.length === 0 && p.form && device) accepted.push({ deviceId: device.id, form: p.form });
  }
  return { issues, accepted };
}
