import { describe, expect, it } from 'vitest';
import { generateDevices, parseFleetFile } from './fleet-file.ts';

describe('generateDevices', () => {
  it('numbers devices from 00001 with the prefix', () => {
    const devices = generateDevices(3, { protocol: 'mqtt', stationId: 'S1', prefix: 'SIM-' });
    expect(devices).toEqual([
      { stationId: 'S1', code: 'SIM-00001', protocol: 'mqtt' },
      { stationId: 'S1', code: 'SIM-00002', protocol: 'mqtt' },
      { stationId: 'S1', code: 'SIM-00003', protocol: 'mqtt' },
    ]);
    expect(generateDevices(100_000, { protocol: 'tcp', stationId: 'S1', prefix: 'X' }).at(-1)?.code).toBe(
      'X100000',
    );
  });

  it('deals protocols out in turn for mixed, with a unique devEUI for each LoRaWAN lock', () => {
    const devices = generateDevices(6, { protocol: 'mixed', stationId: 'S2', prefix: 'SIM-' });
    expect(devices.map((d) => d.protocol)).toEqual([
      'mqtt',
      'chirpstack',
      'tcp',
      'mqtt',
      'chirpstack',
      'tcp',
    ]);
    expect(devices.map((d) => d.devEui)).toEqual([
      undefined,
      '70B3D57ED0000002',
      undefined,
      undefined,
      '70B3D57ED0000005',
      undefined,
    ]);
  });
});

describe('parseFleetFile', () => {
  it('reads devices and keeps only the known fields', () => {
    const text = JSON.stringify([
      { stationId: 'S1', code: 'L-1', secret: 'k1', protocol: 'mqtt', note: 'ignored' },
      { stationId: 'S1', code: 'L-2', protocol: 'chirpstack', devEui: '0011223344556677' },
    ]);
    expect(parseFleetFile(text, 'fleet.json')).toEqual({
      devices: [
        { stationId: 'S1', code: 'L-1', secret: 'k1', protocol: 'mqtt' },
        { stationId: 'S1', code: 'L-2', protocol: 'chirpstack', devEui: '0011223344556677' },
      ],
    });
  });

  it.each([
    ['{', 'fleet.json: not JSON'],
    ['{}', 'fleet.json: must be a JSON array of devices'],
    ['[]', 'fleet.json: lists no device'],
    ['[1]', 'fleet.json: [0]: must be an object'],
    ['[{"stationId":"S1","code":"L/1","protocol":"mqtt"}]', 'fleet.json: [0].code: must be 1..64 characters'],
    ['[{"stationId":"","code":"L1","protocol":"mqtt"}]', 'fleet.json: [0].stationId'],
    ['[{"stationId":"S1","code":"L1","protocol":"nbiot"}]', 'fleet.json: [0].protocol: must be one of mqtt'],
    [
      '[{"stationId":"S1","code":"L1","protocol":"chirpstack"}]',
      '[0].devEui: required for a chirpstack device',
    ],
    [
      '[{"stationId":"S1","code":"L1","protocol":"chirpstack","devEui":"xyz"}]',
      '[0].devEui: must be 16 hex digits',
    ],
    ['[{"stationId":"S1","code":"L1","protocol":"tcp","secret":7}]', '[0].secret: must be a string'],
  ])('refuses %s', (text, message) => {
    const parsed = parseFleetFile(text, 'fleet.json');
    expect('error' in parsed && parsed.error).toContain(message);
  });

  it("keeps a device's PIN secret (40 hex digits, either case)", () => {
    const lower = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const upper = lower.toUpperCase();
    const text = JSON.stringify([
      { stationId: 'S1', code: 'L-1', secret: 'k1', protocol: 'mqtt', pinSecret: lower },
      { stationId: 'S1', code: 'L-2', protocol: 'tcp', pinSecret: upper },
      { stationId: 'S1', code: 'L-3', protocol: 'tcp' },
    ]);
    expect(parseFleetFile(text, 'fleet.json')).toEqual({
      devices: [
        { stationId: 'S1', code: 'L-1', secret: 'k1', protocol: 'mqtt', pinSecret: lower },
        { stationId: 'S1', code: 'L-2', protocol: 'tcp', pinSecret: upper },
        { stationId: 'S1', code: 'L-3', protocol: 'tcp' },
      ],
    });
  });

  it.each([
    ['39 hex digits', 'a1b2c3d4e5f60718293a4b5c6d7e8f901234567'],
    ['41 hex digits', 'a1b2c3d4e5f60718293a4b5c6d7e8f90123456789'],
    ['a non-hex digit', 'g1b2c3d4e5f60718293a4b5c6d7e8f9012345678'],
    ['base64', 'obLD1OX2BxgpOktcbX6PkBI0Vng='],
    ['an empty string', ''],
    ['a number', 1234],
  ])('refuses a PIN secret of %s without repeating it', (_name, pinSecret) => {
    const text = JSON.stringify([{ stationId: 'S1', code: 'L-1', protocol: 'tcp', pinSecret }]);
    const parsed = parseFleetFile(text, 'fleet.json');
    expect('error' in parsed && parsed.error).toBe(
      'fleet.json: [0].pinSecret: must be 40 hex digits (the 20-byte pinSecret shown with the device credential)',
    );
  });

  it('never shows a secret in its refusal', () => {
    const parsed = parseFleetFile(
      '[{"stationId":"S1","code":"L/1","secret":"hunter2","protocol":"mqtt"}]',
      'f',
    );
    expect('error' in parsed && parsed.error).not.toContain('hunter2');
  });
});
