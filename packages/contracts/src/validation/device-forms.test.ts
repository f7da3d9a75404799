import { describe, expect, it } from 'vitest';
import '../validation/zod-messages.ts';
import {
  adjustValueForm,
  batchAddForm,
  batchNames,
  deviceForm,
  devicePasswordForm,
  deviceTypeForm,
  intervalForm,
  keyForm,
  lockCodeForm,
  unitForm,
} from './device-forms.ts';

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('unitForm (spec §3 Operation unit, §5)', () => {
  it('takes a whole, non-negative sort index, 0 by default', () => {
    expect(unitForm.parse({ name: 'A' }).sortIndex).toBe(0);
    expect(unitForm.parse({ name: 'A', sortIndex: '12' }).sortIndex).toBe(12);
    for (const bad of [-1, 1.5, 'abc']) {
      expect(issuesOf(unitForm.safeParse({ name: 'A', sortIndex: bad })), String(bad)).toEqual([
        'sortIndex:v.integer',
      ]);
    }
  });

  it('needs a name of at most 64 characters and limits the other texts', () => {
    expect(issuesOf(unitForm.safeParse({ name: '  ' }))).toEqual(['name:v.required']);
    expect(
      issuesOf(
        unitForm.safeParse({
          name: 'x'.repeat(65),
          menuName: 'm'.repeat(65),
          typeId: 't'.repeat(65),
          desc: 'd'.repeat(256),
        }),
      ),
    ).toEqual(['name:v.tooLong', 'menuName:v.tooLong', 'typeId:v.tooLong', 'desc:v.tooLong']);
    expect(unitForm.parse({ name: 'A', menuName: 'm'.repeat(64), desc: 'd'.repeat(255) }).name).toBe('A');
  });

  it('turns empty optional texts into null', () => {
    expect(unitForm.parse({ name: ' A ', menuName: '', typeId: '', desc: ' ' })).toMatchObject({
      name: 'A',
      menuName: null,
      typeId: null,
      desc: null,
    });
  });
});

describe('deviceForm (spec §3 Device, §5)', () => {
  const minimal = { name: 'Lock 1', unitId: 'u1', typeId: 't1' };

  it('needs a name, a district (unit) and a type', () => {
    expect(issuesOf(deviceForm.safeParse({}))).toEqual([
      'name:v.required',
      'typeId:v.required',
      'unitId:v.required',
    ]);
    expect(issuesOf(deviceForm.safeParse({ ...minimal, unitId: '' }))).toEqual(['unitId:v.required']);
    const parsed = deviceForm.parse(minimal);
    expect(parsed).toMatchObject({ name: 'Lock 1', status: 'normal', noState: false, isDrawTool: false });
  });

  it('applies the format rules to its fields', () => {
    expect(
      issuesOf(
        deviceForm.safeParse({
          ...minimal,
          lng: '180.00000001',
          lat: '90.5',
          imei: '12345678901234',
          imsi: '1234567890123456',
          devEUI: 'xyz',
          appEUI: '0011223344556677889',
          iotType: 'Vodafone',
          code: 'a b',
        }),
      ).sort(),
    ).toEqual(
      [
        'lng:v.longitude',
        'lat:v.latitude',
        'imei:v.imei',
        'imsi:v.imsi',
        'devEUI:v.eui',
        'appEUI:v.eui',
        'iotType:v.invalid',
        'code:v.code',
      ].sort(),
    );
  });

  it('keeps good values, upper-casing LoRaWAN identifiers', () => {
    const parsed = deviceForm.parse({
      ...minimal,
      lng: '114.1234567',
      lat: 22.3,
      imei: '861234567890123',
      devEUI: 'aabbccddeeff0011',
      iotType: 'ChinaTelecom',
      netType: 'NbIot',
    });
    expect(parsed).toMatchObject({
      lng: 114.1234567,
      lat: 22.3,
      imei: '861234567890123',
      devEUI: 'AABBCCDDEEFF0011',
      iotType: 'ChinaTelecom',
    });
  });
});

describe('batchAddForm (spec §5: name prefix, description prefix and count)', () => {
  const batch = { namePrefix: 'Door-', descPrefix: 'Door lock ', count: 3, unitId: 'u', typeId: 't' };

  it('needs the prefixes and a count from 1 to 500', () => {
    expect(issuesOf(batchAddForm.safeParse({ ...batch, namePrefix: '', descPrefix: ' ' }))).toEqual([
      'namePrefix:v.required',
      'descPrefix:v.required',
    ]);
    for (const count of [0, -1, 1.5, 501]) {
      expect(issuesOf(batchAddForm.safeParse({ ...batch, count })), String(count)).toEqual([
        'count:v.batchCount',
      ]);
    }
    expect(batchAddForm.parse({ ...batch, count: '500' }).count).toBe(500);
  });

  it('numbers the names and descriptions from 1', () => {
    expect(batchNames(batch)).toEqual([
      { name: 'Door-1', desc: 'Door lock 1' },
      { name: 'Door-2', desc: 'Door lock 2' },
      { name: 'Door-3', desc: 'Door lock 3' },
    ]);
  });
});

describe('lockCodeForm (spec §3 Lock code)', () => {
  const code = { deviceId: 'd', rfidCode: 'a1b2c3d4e5f6' };

  it('upper-cases the RFID and normalises the Bluetooth address', () => {
    expect(lockCodeForm.parse({ ...code, blueAddr: 'a1b2c3d4e5f6' })).toMatchObject({
      rfidCode: 'A1B2C3D4E5F6',
      blueAddr: 'A1:B2:C3:D4:E5:F6',
      effect: true,
    });
  });

  it('wants the expiration later than the effective time (not equal, not earlier)', () => {
    const at = (effectiveTime: string, expirationTime: string) =>
      issuesOf(lockCodeForm.safeParse({ ...code, effectiveTime, expirationTime }));
    expect(at('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toEqual(['expirationTime:v.endAfterStart']);
    expect(at('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z')).toEqual(['expirationTime:v.endAfterStart']);
    expect(at('2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z')).toEqual([]);
    expect(issuesOf(lockCodeForm.safeParse({ ...code, expirationTime: '2026-01-01T00:00:00Z' }))).toEqual([]);
  });
});

describe('adjustValueForm, keyForm, devicePasswordForm, intervalForm', () => {
  it('correction values are numbers', () => {
    expect(adjustValueForm.parse({ deviceId: 'd', name: 'Offset', value: '-1.25' }).value).toBe(-1.25);
    expect(issuesOf(adjustValueForm.safeParse({ deviceId: 'd', name: 'Offset', value: 'abc' }))).toEqual([
      'value:v.number',
    ]);
    expect(issuesOf(adjustValueForm.safeParse({ deviceId: 'd', name: 'Offset', value: '' }))).toEqual([
      'value:v.required',
    ]);
  });

  it('keys need a name and a code', () => {
    expect(issuesOf(keyForm.safeParse({ name: '', code: '' }))).toEqual([
      'name:v.required',
      'code:v.required',
    ]);
    expect(keyForm.parse({ name: 'Key 1', code: 'K-001', staffId: '' }).staffId).toBeNull();
  });

  it('permanent passwords are 6 to 12 digits', () => {
    for (const good of ['123456', '123456789012']) {
      expect(devicePasswordForm.safeParse({ deviceId: 'd', password: good }).success).toBe(true);
    }
    for (const bad of ['12345', '1234567890123', '12345a']) {
      expect(issuesOf(devicePasswordForm.safeParse({ deviceId: 'd', password: bad }))).toEqual([
        'password:v.devicePassword',
      ]);
    }
  });

  it('device types need a category and positive intervals', () => {
    expect(issuesOf(deviceTypeForm.safeParse({ name: 'NB lock', code: 'NB' }))).toEqual([
      'category:v.required',
    ]);
    expect(deviceTypeForm.parse({ name: 'NB lock', code: 'NB', category: 'IoT' })).toMatchObject({
      reportInterval: 3600,
      heartbeatInterval: 300,
    });
    expect(issuesOf(intervalForm.safeParse({ id: 't', reportInterval: 0, heartbeatInterval: 1.5 }))).toEqual([
      'reportInterval:v.positiveInteger',
      'heartbeatInterval:v.positiveInteger',
    ]);
  });
});
