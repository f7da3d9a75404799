import { describe, expect, it } from 'vitest';
import type { CellValue } from './import-cells.ts';
import { type DeviceRefs, parseDeviceRows, resolveDeviceRows } from './import-devices.ts';
import type { RowIssue, SheetRow } from './import-rows.ts';

const sheet = (...records: Record<string, CellValue>[]): SheetRow[] =>
  records.map((cells, i) => ({ row: i + 2, cells: new Map(Object.entries(cells)) }));

const refs: DeviceRefs = {
  units: new Map([['line 1/station a', { id: 'u1', stationId: 'S1' }]]),
  types: new Map([['lock', { id: 't1', category: 'IoT' }]]),
  departments: new Map([
    ['maintenance', ['d1']],
    ['twins', ['d2', 'd3']],
  ]),
  staff: new Map([['alice', 's1']]),
  taken: { code: new Set(['USED']), imei: new Set(['111111111111111']), devEUI: new Set() },
};

const byCell = (issues: readonly RowIssue[]) =>
  [...issues].sort((a, b) => a.row - b.row || String(a.column).localeCompare(String(b.column)));

const good = { name: 'Lock 1', unitPath: 'Line 1/Station A', typeCode: 'LOCK' };

describe('device rows', () => {
  it('resolve names to ids, the category defaulting to the type', () => {
    const { parsed, issues } = parseDeviceRows(
      sheet(
        {
          ...good,
          imei: 861234567890123,
          lng: 113.1234567,
          lat: '22.5',
          iotType: 'tcpdirect',
          deptName: 'Maintenance',
        },
        { ...good, name: 'Lock 2', category: 'elec', staffName: 'ALICE', devEUI: 'a1b2c3d4e5f60718' },
      ),
    );
    expect(issues).toEqual([]);
    const resolved = resolveDeviceRows(parsed, refs);
    expect(resolved.issues).toEqual([]);
    expect(resolved.accepted).toHaveLength(2);
    expect(resolved.accepted[0]).toMatchObject({
      unitId: 'u1',
      stationId: 'S1',
      typeId: 't1',
      category: 'IoT',
      deptId: 'd1',
      staffId: null,
      form: { name: 'Lock 1', imei: '861234567890123', lng: 113.1234567, lat: 22.5, iotType: 'TcpDirect' },
    });
    expect(resolved.accepted[1]).toMatchObject({
      category: 'Elec',
      staffId: 's1',
      form: { devEUI: 'A1B2C3D4E5F60718' },
    });
  });

  it('apply every format rule of the device form, with its keys', () => {
    const { issues } = parseDeviceRows(
      sheet(
        { unitPath: '', typeCode: '', imei: '86123456789012', lat: 90.00000001, lng: '180.0000000' },
        { ...good, imsi: 'abc', devEUI: 'xyz', iotType: 'Pigeon', code: 'bad code' },
      ),
    );
    expect(byCell(issues)).toEqual(
      byCell([
        { row: 2, column: 'name', key: 'v.required' },
        { row: 2, column: 'imei', key: 'v.imei' },
        { row: 2, column: 'lat', key: 'v.latitude' },
        { row: 2, column: 'unitPath', key: 'v.required' },
        { row: 2, column: 'typeCode', key: 'v.required' },
        { row: 3, column: 'code', key: 'v.code' },
        { row: 3, column: 'imsi', key: 'v.imsi' },
        { row: 3, column: 'devEUI', key: 'v.eui' },
        {
          row: 3,
          column: 'iotType',
          key: 'import.oneOf',
          params: { values: 'ChinaTelecom, ChinaUnicom, ChinaMobile, TcpDirect' },
        },
      ]),
    );
  });

  it('name every unknown reference and every taken or repeated identifier', () => {
    const { parsed } = parseDeviceRows(
      sheet(
        { ...good, code: 'C1', imei: '222222222222222' },
        { ...good, unitPath: 'Line 1/Nowhere', typeCode: 'nope', deptName: 'Twins', staffName: 'bob' },
        { ...good, code: 'C1', imei: '111111111111111' },
        { ...good, code: 'USED', imei: '222222222222222' },
        { ...good, deptName: 'Ghosts' },
      ),
    );
    const { issues, accepted: devices } = resolveDeviceRows(parsed, refs);
    expect(devices.length).toBeLessThan(5);
    expect(issues).toEqual([
      { row: 3, column: 'unitPath', key: 'import.unitNotFound' },
      { row: 3, column: 'typeCode', key: 'import.typeNotFound' },
      { row: 3, column: 'deptName', key: 'import.deptAmbiguous' },
      { row: 3, column: 'staffName', key: 'import.staffNotFound' },
      { row: 4, column: 'code', key: 'import.duplicateInFile', params: { row: 2 } },
      { row: 4, column: 'imei', key: 'import.taken' },
      { row: 5, column: 'code', key: 'import.taken' },
      { row: 5, column: 'imei', key: 'import.duplicateInFile', params: { row: 2 } },
      { row: 6, column: 'deptName', key: 'import.deptNotFound' },
    ]);
  });
});
