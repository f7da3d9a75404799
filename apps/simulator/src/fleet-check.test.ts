import { describe, expect, it } from 'vitest';
import { fleetOptionsProblem } from './fleet-check.ts';
import type { FleetOptions } from './fleet-options.ts';

const base: FleetOptions = {
  devices: [
    { stationId: 'S1', code: 'L-1', protocol: 'mqtt' },
    { stationId: 'S1', code: 'L-2', protocol: 'chirpstack', devEui: '0011223344556677' },
    { stationId: 'S1', code: 'L-3', protocol: 'tcp', secret: 'k' },
  ],
  mqttUrl: 'mqtt://127.0.0.1:1883',
  chirpstack: { username: 'chirpstack', password: 'p', applicationId: 'app' },
  tcp: { host: '127.0.0.1', port: 9883 },
  mode: { kind: 'behaviour' },
};

describe('fleetOptionsProblem', () => {
  it('lets ChirpStack alone connect over TLS or WebSocket (native locks speak plain MQTT)', () => {
    const loraOnly = base.devices.filter((d) => d.protocol === 'chirpstack');
    expect(fleetOptionsProblem({ ...base, devices: loraOnly, mqttUrl: 'wss://broker/mqtt' })).toBeUndefined();
  });

  it('accepts a complete fleet and an empty behaviour fleet', () => {
    expect(fleetOptionsProblem(base)).toBeUndefined();
    expect(fleetOptionsProblem({ devices: [], mode: { kind: 'behaviour' } })).toBeUndefined();
    expect(
      fleetOptionsProblem({ ...base, mode: { kind: 'load', rate: 0.5, maxInFlightPerDevice: 10 } }),
    ).toBeUndefined();
  });

  it.each<[string, Partial<FleetOptions>, string]>([
    ['no url', { mqttUrl: undefined }, 'mqttUrl: required'],
    ['an http url', { mqttUrl: 'http://x' }, 'mqttUrl: must be an mqtt://'],
    [
      'a WebSocket url for native locks',
      { mqttUrl: 'ws://127.0.0.1:8083/mqtt' },
      'mqttUrl: a native MQTT lock',
    ],
    ['no chirpstack options', { chirpstack: undefined }, 'chirpstack: required for chirpstack devices'],
    [
      'a bad application id',
      { chirpstack: { username: 'c', password: '', applicationId: 'a/b' } },
      'applicationId',
    ],
    ['no tcp address', { tcp: undefined }, 'tcp: required for tcp devices'],
    ['a bad tcp port', { tcp: { host: 'h', port: 0 } }, 'tcp.port'],
    ['a zero rate', { mode: { kind: 'load', rate: 0 } }, 'mode.rate'],
    [
      'a zero in-flight bound',
      { mode: { kind: 'load', rate: 1, maxInFlightPerDevice: 0 } },
      'maxInFlightPerDevice',
    ],
    [
      'more in flight than MQTT packet ids',
      { mode: { kind: 'load', rate: 1, maxInFlightPerDevice: 70_000 } },
      'maxInFlightPerDevice: must be an integer from 1 to 60000',
    ],
    ['a negative time scale', { mode: { kind: 'behaviour', timeScale: -1 } }, 'mode.timeScale'],
    ['a zero heartbeat', { mode: { kind: 'behaviour', heartbeatSeconds: 0 } }, 'mode.heartbeatSeconds'],
    [
      'a load without devices',
      { devices: [], mode: { kind: 'load', rate: 5 } },
      'load mode needs at least one',
    ],
    ['a bad concurrency', { connectConcurrency: 0 }, 'connectConcurrency'],
    [
      'a device twice',
      { devices: [base.devices[2], base.devices[2]] as FleetOptions['devices'] },
      'devices[1]: device L-3 of station S1 twice',
    ],
    [
      'one mqtt code in two stations',
      {
        devices: [
          { stationId: 'S1', code: 'L-1', protocol: 'mqtt' },
          { stationId: 'S2', code: 'L-1', protocol: 'mqtt' },
        ],
      },
      'a second mqtt device with code L-1',
    ],
    [
      'one devEUI twice',
      {
        devices: [
          { stationId: 'S1', code: 'A', protocol: 'chirpstack', devEui: '0011223344556677' },
          { stationId: 'S1', code: 'B', protocol: 'chirpstack', devEui: '0011223344556677' },
        ],
      },
      'devices[1].devEui',
    ],
    [
      'a short PIN secret',
      { devices: [{ stationId: 'S1', code: 'L-1', protocol: 'mqtt', pinSecret: 'abcdef' }] },
      'devices[0].pinSecret: must be 40 hex digits',
    ],
    [
      'a wildcard in a code',
      { devices: [{ stationId: 'S1', code: 'L+', protocol: 'mqtt' }] },
      'devices[0].code',
    ],
  ])('refuses %s', (_name, change, message) => {
    expect(fleetOptionsProblem({ ...base, ...change })).toContain(message);
  });
});
