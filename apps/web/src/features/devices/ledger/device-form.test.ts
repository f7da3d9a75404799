import {
  type DeviceRow,
  type DeviceTypeNode,
  deviceForm,
  FLAGGED_ATTACHMENT_FIELDS,
  FLAGGED_DEVICE_FIELDS,
} from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { deviceToForm, hiddenFields, keepHidden, newDeviceValues, typeCategory } from './device-form.ts';

const row: DeviceRow = {
  id: 'd1',
  name: 'Lock 1',
  code: 'L-1',
  sbbh: null,
  adCode: null,
  bayId: null,
  lng: 114.1234567,
  lat: 22.3,
  isDrawTool: false,
  stationId: 'UIOT-001',
  status: 'normal',
  unitId: 'u1',
  unitName: 'Depot',
  typeId: 't1',
  typeName: 'Padlock',
  devTypeCode: 'PL',
  mainTypeId: 't1',
  mainTypeName: 'Padlock',
  category: 'IoT',
  voltage: null,
  deptId: 'dept1',
  deptName: 'Works',
  staffId: null,
  staffName: null,
  desc: 'east gate',
  extra1: null,
  extra2: null,
  graphId: null,
  idxNo: 3,
  imei: '861234567890123',
  imsi: null,
  appKey: null,
  iotType: 'ChinaMobile',
  lockStatus: 'unknown',
  mainDeviceId: null,
  netType: 'NbIot',
  noState: false,
  noWorking: true,
  addr: null,
  secondId: null,
  kmInfo: 'K12+300',
  line: 'TWL',
  track: 'UP',
  door: 'D1',
  regist: true,
  registTime: '2026-01-01T00:00:00.000Z',
  appEUI: null,
  devEUI: null,
  productId: null,
  platName: null,
  camera: null,
  preSet: null,
  attachmentCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  abilities: { operate: true },
};

describe('device dialog values', () => {
  it('edits the form fields of a row and passes the shared schema unchanged', () => {
    const values = deviceToForm(row);
    expect(values).not.toHaveProperty('unitName');
    expect(values).not.toHaveProperty('regist');
    expect(values).not.toHaveProperty('lockStatus');
    const parsed = deviceForm.parse(values);
    expect(parsed).toMatchObject({ name: 'Lock 1', unitId: 'u1', typeId: 't1', lng: 114.1234567, lat: 22.3 });
    expect(parsed.idxNo).toBe(3);
    expect(parsed.noWorking).toBe(true);
  });

  it('shows coordinates as text, so their decimals are checked as written', () => {
    expect(deviceToForm(row).lng).toBe('114.1234567');
    expect(deviceToForm({ ...row, lng: null }).lng).toBeNull();
  });

  it('starts a new device normal, in the unit chosen beside the ledger', () => {
    expect(newDeviceValues('u9')).toMatchObject({ unitId: 'u9', status: 'normal', isDrawTool: false });
    expect(newDeviceValues()).not.toHaveProperty('unitId');
  });

  it('keeps the hidden km fields of a device when ShowKmInfo is off', () => {
    const values = deviceForm.parse({ ...deviceToForm(row), kmInfo: '', line: '', track: '', door: '' });
    const noKm = new Set(['kmInfo', 'line', 'track', 'door']);
    expect(keepHidden(values, row, noKm)).toMatchObject({
      kmInfo: 'K12+300',
      line: 'TWL',
      track: 'UP',
      door: 'D1',
    });
    expect(keepHidden(values, null, noKm)).toMatchObject({ kmInfo: null, line: null });
    expect(keepHidden(values, row, new Set())).toMatchObject({ kmInfo: null, line: null });
  });

  it('keeps the IoT fields and "no state" of a device while their flags are off (new ones empty)', () => {
    const typed = deviceForm.parse({ ...deviceToForm(row), imei: '', iotType: null, noState: true });
    const hidden = hiddenFields({ ShowKmInfo: 'true' }, FLAGGED_DEVICE_FIELDS);
    expect(keepHidden(typed, row, hidden)).toMatchObject({
      imei: '861234567890123',
      iotType: 'ChinaMobile',
      netType: 'NbIot',
      noState: false,
    });
    expect(keepHidden(typed, null, hidden)).toMatchObject({ imei: null, iotType: null, noState: false });
  });
});

describe('flags and types', () => {
  it('hides the fields of every flag that is off, and only those', () => {
    const all = { SupportIoT: 'true', NoState: 'true', ShowKmInfo: 'true' };
    expect([...hiddenFields(all, FLAGGED_DEVICE_FIELDS)]).toEqual([]);
    expect([...hiddenFields({ ...all, NoState: 'false' }, FLAGGED_DEVICE_FIELDS)]).toEqual(['noState']);
    expect([...hiddenFields({ ...all, SupportIoT: 'false' }, FLAGGED_DEVICE_FIELDS)]).toEqual([
      ...FLAGGED_DEVICE_FIELDS.SupportIoT,
    ]);
    expect([...hiddenFields({}, FLAGGED_ATTACHMENT_FIELDS)]).toEqual(['imei', 'imsi', 'iotType']);
  });

  it('finds the category of a main type or a sub type', () => {
    const type = (id: string, category: DeviceTypeNode['category'], children: DeviceTypeNode[] = []) => ({
      id,
      name: id,
      code: id,
      parentId: null,
      category,
      reportInterval: 3600,
      heartbeatInterval: 300,
      sortIndex: 0,
      desc: null,
      deviceCount: 0,
      children,
    });
    const tree = [type('main', 'Elec', [type('sub', 'IoT')]), type('lc', 'LC')];
    expect(typeCategory(tree, 'main')).toBe('Elec');
    expect(typeCategory(tree, 'sub')).toBe('IoT');
    expect(typeCategory(tree, 'lc')).toBe('LC');
    expect(typeCategory(tree, 'gone')).toBeNull();
    expect(typeCategory(tree, null)).toBeNull();
  });
});
