import { describe, expect, it } from 'vitest';
import {
  bluetoothAddress,
  coordinateProblem,
  eui,
  imei,
  imsi,
  intervalSeconds,
  latitude,
  lockRfid,
  longitude,
  normaliseBluetooth,
  optionalTime,
  requiredCode,
} from './device-formats.ts';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => i.message);

describe('longitude (spec §5: up to 180 with 7 decimals)', () => {
  it.each(['180', '180.0000000', '-180.0000000', '179.9999999', '114.1234567', '0', '0.0000001', '+113.5'])(
    'accepts %s',
    (value) => {
      expect(coordinateProblem(value, 180)).toBeNull();
      expect(longitude.safeParse(value).success).toBe(true);
    },
  );

  it.each([
    '180.00000001',
    '180.0000001',
    '-180.0000001',
    '181',
    '114.12345678',
    '1e2',
    'abc',
    '12.',
    '.5',
    '1234',
    '114,5',
  ])('refuses %s', (value) => {
    expect(coordinateProblem(value, 180)).toBe('v.longitude');
    expect(messages(longitude.safeParse(value))).toEqual(['v.longitude']);
  });

  it('reads numbers by their decimal writing, tiny ones too', () => {
    expect(longitude.parse(180)).toBe(180);
    expect(longitude.parse(113.1234567)).toBe(113.1234567);
    expect(longitude.parse(0.0000001)).toBe(0.0000001);
    expect(messages(longitude.safeParse(180.00000001))).toEqual(['v.longitude']);
    expect(messages(longitude.safeParse(1e-8))).toEqual(['v.longitude']);
    expect(messages(longitude.safeParse(Number.NaN))).toEqual(['v.longitude']);
  });

  it('treats empty as not given', () => {
    expect(longitude.parse('')).toBeNull();
    expect(longitude.parse(null)).toBeNull();
    expect(longitude.parse(undefined)).toBeUndefined();
  });
});

describe('latitude (spec §5: up to 90 with 7 decimals)', () => {
  it.each(['90', '90.0000000', '-90', '22.3193039'])('accepts %s', (value) => {
    expect(latitude.safeParse(value).success).toBe(true);
  });
  it.each(['90.0000001', '90.1', '-90.00000001', '22.31930391', '91'])('refuses %s', (value) => {
    expect(messages(latitude.safeParse(value))).toEqual(['v.latitude']);
  });
});

describe('IMEI: exactly 15 digits', () => {
  it('accepts 15 digits and nothing', () => {
    expect(imei.parse('861234567890123')).toBe('861234567890123');
    expect(imei.parse(' 861234567890123 ')).toBe('861234567890123');
    expect(imei.parse('')).toBeNull();
  });
  it.each(['86123456789012', '8612345678901234', '86123456789012a', '86123456789012 3'])(
    'refuses %j',
    (value) => {
      expect(messages(imei.safeParse(value))).toContain('v.imei');
    },
  );
});

describe('IMSI: up to 15 digits', () => {
  it('accepts 1 to 15 digits', () => {
    expect(imsi.parse('460001234567890')).toBe('460001234567890');
    expect(imsi.parse('4')).toBe('4');
  });
  it.each(['4600012345678901', '46000123456789x'])('refuses %j', (value) => {
    expect(messages(imsi.safeParse(value))).toContain('v.imsi');
  });
});

describe('LoRaWAN identifiers: 16 hex digits, upper-cased', () => {
  it('accepts and upper-cases', () => {
    expect(eui.parse('70b3d57ed0001a2b')).toBe('70B3D57ED0001A2B');
  });
  it.each(['70B3D57ED0001A2', '70B3D57ED0001A2B0', '70B3D57ED0001A2G'])('refuses %j', (value) => {
    expect(messages(eui.safeParse(value))).toContain('v.eui');
  });
});

describe('lock code RFID: 12 hex characters, upper-cased', () => {
  it('upper-cases lower-case input', () => {
    expect(lockRfid.parse('0a1b2c3d4e5f')).toBe('0A1B2C3D4E5F');
  });
  it.each(['0A1B2C3D4E5', '0A1B2C3D4E5F0', '0A1B2C3D4E5G'])('refuses %j', (value) => {
    expect(messages(lockRfid.safeParse(value))).toEqual(['v.rfid']);
  });
  it('is required', () => {
    expect(messages(lockRfid.safeParse(''))).toEqual(['v.required']);
    expect(messages(lockRfid.safeParse(undefined))).toEqual(['v.required']);
  });
});

describe('Bluetooth address', () => {
  it('is written as AA:BB:CC:DD:EE:FF whatever the separators', () => {
    expect(normaliseBluetooth('a1b2c3d4e5f6')).toBe('A1:B2:C3:D4:E5:F6');
    expect(bluetoothAddress.parse('a1-b2-c3-d4-e5-f6')).toBe('A1:B2:C3:D4:E5:F6');
    expect(bluetoothAddress.parse('A1:B2:C3:D4:E5:F6')).toBe('A1:B2:C3:D4:E5:F6');
  });
  it.each(['A1:B2:C3:D4:E5', 'A1:B2:C3:D4:E5:G6', 'A1::B2:C3:D4:E5:F6'])('refuses %j', (value) => {
    expect(messages(bluetoothAddress.safeParse(value))).toEqual(['v.bluetooth']);
  });
});

describe('intervals: positive whole seconds up to 30 days', () => {
  it.each([1, '60', 2592000])('accepts %j', (value) => {
    expect(intervalSeconds.safeParse(value).success).toBe(true);
  });
  it.each([0, -1, 1.5, 'abc', 2592001])('refuses %j', (value) => {
    expect(messages(intervalSeconds.safeParse(value))).toEqual(['v.positiveInteger']);
  });
});

describe('codes', () => {
  it('take letters, digits, _ - . and start with a letter or digit', () => {
    expect(requiredCode(32).parse('LOCK_NB-1.0')).toBe('LOCK_NB-1.0');
    expect(messages(requiredCode(32).safeParse('-LOCK'))).toEqual(['v.code']);
    expect(messages(requiredCode(32).safeParse('LOCK 1'))).toEqual(['v.code']);
    expect(messages(requiredCode(32).safeParse('锁'))).toEqual(['v.code']);
    expect(messages(requiredCode(4).safeParse('ABCDE'))).toEqual(['v.tooLong']);
  });
});

describe('optional times', () => {
  it('are ISO texts or nothing', () => {
    expect(optionalTime.parse('2026-11-21T08:00:00+08:00')).toBe('2026-11-21T00:00:00.000Z');
    expect(optionalTime.parse('')).toBeNull();
    expect(messages(optionalTime.safeParse('tomorrow'))).toEqual(['v.invalid']);
  });
});
