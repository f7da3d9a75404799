import { ResultCode } from '@uiot/contracts';
import { decodeLockCommand } from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { lockSequenceOf } from '../commands/index.ts';
import { commandTransportOf, lockPayloadOf } from './command-sender.ts';

const base = { iotType: null, netType: null, code: null, devEui: null };

describe('commandTransportOf', () => {
  it('sends to TcpDirect locks on their connection, by code', () => {
    expect(commandTransportOf({ ...base, iotType: 'TcpDirect', code: 'T-1' })).toBe('tcp');
    expect(commandTransportOf({ ...base, iotType: 'TcpDirect' })).toEqual({ unsupported: 'TcpDirect' });
  });

  it("sends to NB-IoT locks through their carrier's platform, by IMEI, when its command API is configured", () => {
    const configured = new Set(['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile']);
    for (const iotType of configured) {
      const lock = { ...base, iotType, netType: 'NbIot', imei: '864123456789012' };
      expect(commandTransportOf(lock, configured)).toBe('nbiot');
      // not configured: refused, naming the network, as before
      expect(commandTransportOf(lock, new Set())).toEqual({ unsupported: iotType });
      expect(commandTransportOf({ ...lock, imei: null }, configured)).toEqual({ unsupported: iotType });
    }
    expect(
      commandTransportOf(
        { ...base, iotType: 'ChinaMobile', imei: '864123456789012' },
        new Set(['ChinaTelecom']),
      ),
    ).toEqual({
      unsupported: 'ChinaMobile',
    });
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

describe('lockPayloadOf', () => {
  it("is the lock's binary command, its sequence from the command id", () => {
    const bytes = lockPayloadOf(
      { id: 'c-1', cmd: 'setParam', params: { heartbeatSeconds: 300 } },
      'ChinaTelecom',
    );
    expect(decodeLockCommand(bytes)).toEqual({
      ok: true,
      value: { seq: lockSequenceOf('c-1'), cmd: 'setParam', params: { heartbeatSeconds: 300 } },
    });
  });

  it('refuses a text parameter or a command the lock has no code for, naming the network and command', () => {
    for (const command of [
      { id: 'c-2', cmd: 'setPassword', params: { password: '123456' } },
      { id: 'c-3', cmd: 'selfDestruct' },
    ]) {
      let error: unknown;
      try {
        lockPayloadOf(command, 'ChinaUnicom');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(ResultCode.CommandUnsupported);
      expect((error as AppError).params).toEqual({ network: `ChinaUnicom ${command.cmd}` });
    }
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
