import { describe, expect, it } from 'vitest';
import type { CellValue } from './import-cells.ts';
import {
  type LockCodeRefs,
  type LockedDevice,
  parseLockCodeRows,
  resolveLockCodeRows,
} from './import-lock-codes.ts';
import type { SheetRow } from './import-rows.ts';

const sheet = (...records: Record<string, CellValue>[]): SheetRow[] =>
  records.map((cells, i) => ({ row: i + 2, cells: new Map(Object.entries(cells)) }));

const main = (id: string): LockedDevice => ({ id, mainDeviceId: null });
const refs: LockCodeRefs = {
  byCode: new Map([
    ['D-1', main('d1')],
    ['ATT-1', { id: 'a1', mainDeviceId: 'd1' }],
  ]),
  byName: new Map([
    ['Gate lock', [main('d2')]],
    ['Twin', [main('d3'), main('d4')]],
    ['Half twin', [main('d5'), { id: 'a2', mainDeviceId: 'd5' }]],
    ['Attached only', [{ id: 'a3', mainDeviceId: 'd1' }]],
  ]),
  takenRfids: new Set(['AAAAAAAAAAAA']),
};

describe('lock-code rows', () => {
  it('find the device by code, else by exact name, and upper-case the RFID', () => {
    const { parsed, issues } = parseLockCodeRows(
      sheet(
        { device: 'D-1', rfidCode: 'abcdef012345', effect: '否', effectiveTime: '2026-03-01 08:00' },
        { device: 'Gate lock', rfidCode: 'ABCDEF012346', blueAddr: 'aabbccddeeff', effect: 'yes' },
        { device: 'Half twin', rfidCode: '0000000000AB' },
      ),
    );
    expect(issues).toEqual([]);
    const { issues: refIssues, accepted: lockCodes } = resolveLockCodeRows(parsed, refs);
    expect(refIssues).toEqual([]);
    expect(lockCodes).toMatchObject([
      {
        deviceId: 'd1',
        form: { rfidCode: 'ABCDEF012345', effect: false, effectiveTime: '2026-03-01T00:00:00.000Z' },
      },
      { deviceId: 'd2', form: { rfidCode: 'ABCDEF012346', effect: true, blueAddr: 'AA:BB:CC:DD:EE:FF' } },
      { deviceId: 'd5', form: { effect: true } },
    ]);
  });

  it('refuse bad formats, unknown or ambiguous devices, attached devices and repeated RFIDs', () => {
    const { parsed, issues } = parseLockCodeRows(
      sheet(
        { device: '', rfidCode: '12345', effect: 'perhaps' },
        {
          device: 'D-1',
          rfidCode: 'ABCDEF012345',
          effectiveTime: '2026-03-02',
          expirationTime: '2026-03-01',
        },
        { device: 'Nobody', rfidCode: 'abcdef012345' },
        { device: 'Twin', rfidCode: 'aaaaaaaaaaaa' },
        { device: 'ATT-1', rfidCode: 'BBBBBBBBBBBB' },
        { device: 'Attached only', rfidCode: 'CCCCCCCCCCCC', effectiveTime: 'soon' },
      ),
    );
    expect(issues).toEqual([
      { row: 2, column: 'device', key: 'v.required' },
      { row: 2, column: 'effect', key: 'import.yesNo' },
      { row: 2, column: 'rfidCode', key: 'v.rfid' },
      { row: 3, column: 'expirationTime', key: 'v.endAfterStart' },
      { row: 7, column: 'effectiveTime', key: 'v.invalid' },
    ]);
    expect(resolveLockCodeRows(parsed, refs).issues).toEqual([
      { row: 4, column: 'device', key: 'import.deviceNotFound' },
      { row: 4, column: 'rfidCode', key: 'import.duplicateInFile', params: { row: 3 } },
      { row: 5, column: 'device', key: 'import.deviceAmbiguous' },
      { row: 5, column: 'rfidCode', key: 'import.taken' },
      { row: 6, column: 'device', key: 'import.notMainDevice' },
      { row: 7, column: 'device', key: 'import.notMainDevice' },
    ]);
  });
});
