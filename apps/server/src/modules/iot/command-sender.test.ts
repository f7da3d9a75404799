import { describe, expect, it } from 'vitest';
import { lockSequenceOf } from '../commands/index.ts';
import { commandTransportOf } from './command-sender.ts';

const base = { iotType: null, netType: null, code: null, devEui: null };

describe('commandTransportOf', () => {
  it('sends to TcpDirect locks on their connection, by code', () => {
    expect(commandTransportOf({ ...base, iotType: 'TcpDirect', code: 'T-1' })).toBe('tcp');
    expect(commandTransportOf({ ...base, iotType: 'TcpDirect' })).toEqual({ unsupported: 'TcpDirect' });
  });

  it('has no way to the NB-IoT platforms yet', () => {
    for (const iotType of ['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile']) {
      expect(commandTransportOf({ ...base, iotType, code: 'N-1', netType: 'NbIot' })).toEqual({
        unsupported: iotType,
      });
    }
  });

  it('sends to LoRaWAN locks through ChirpStack, by devEUI', () => {
    expect(commandTransportOf({ ...base, netType: 'LoRaWan', devEui: '0011223344556677', code: 'L-1' })).toBe(
      'chirpstack',
    );
    expect(commandTransportOf({ ...base, devEui: '0011223344556677' })).toBe('chirpstack');
    expect(commandTransportOf({ ...base, netType: 'LoRaWan', code: 'L-1' })).toEqual({
      unsupported: 'LoRaWAN',
    });
  });

  it('sends to every other device with a code over native MQTT', () => {
    expect(commandTransportOf({ ...base, code: 'M-1' })).toBe('mqtt');
    expect(commandTransportOf({ ...base, code: 'M-1', netType: 'Cat1', devEui: '0011223344556677' })).toBe(
      'mqtt',
    );
    expect(commandTransportOf({ ...base, netType: 'Ethernet' })).toEqual({ unsupported: 'Ethernet' });
  });
});

describe('lockSequenceOf', () => {
  it('is a 16-bit number that stays the same for the same command', () => {
    const id = '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4b1c00';
    expect(lockSequenceOf(id)).toBe(lockSequenceOf(id));
    expect(lockSequenceOf(id)).toBeGreaterThanOrEqual(0);
    expect(lockSequenceOf(id)).toBeLessThan(65_536);
    const spread = new Set(Array.from({ length: 200 }, (_, i) => lockSequenceOf(`command-${i}`)));
    expect(spread.size).toBeGreaterThan(190);
  });
});
