import { describe, expect, it } from 'vitest';
import {
  decodeChirpstackDown,
  decodeChirpstackEvent,
  encodeChirpstackAck,
  encodeChirpstackDown,
  encodeChirpstackStatus,
  encodeChirpstackTxack,
  encodeChirpstackUp,
} from './chirpstack.ts';
import { MAX_CHIRPSTACK_EVENT_BYTES } from './limits.ts';
import { encodeLockCommand, encodeLockReport, encodeLockResult, LOCK_FPORT } from './lock-payload.ts';
import { garbageInputs } from './test-support.ts';

const APP = '7b9a1c40-3a2e-4c8f-9a6b-2d1e0f5c4b3a';
const DEV_EUI = '0102030405abcdef';
const DEDUP = '9f0e5c1a-4b7d-4e2f-8a3c-6d5b4a392817';
const TIME = new Date('2025-11-21T18:33:20.000Z');

/** An uplink exactly as ChirpStack v4 publishes it (JSON marshaler), with nanosecond times and two gateways. */
const REAL_UP = {
  deduplicationId: DEDUP,
  time: '2025-11-21T18:33:20.123456789+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: APP,
    applicationName: 'locks',
    deviceProfileId: 'a1b6e5c2-7f63-4d5e-9c1b-3f0d2e8a4c71',
    deviceProfileName: 'lock',
    deviceName: 'gate-4',
    devEui: DEV_EUI,
    tags: {},
  },
  devAddr: '00f2c5a1',
  adr: true,
  dr: 5,
  fCnt: 42,
  fPort: 10,
  data: Buffer.from(encodeLockReport({ event: 'heartbeat', lock: 'closed', battery: 80 }, 42)).toString(
    'base64',
  ),
  rxInfo: [
    { gatewayId: '0016c001f153a14c', uplinkId: 1, rssi: -97, snr: 2.5, crcStatus: 'CRC_OK' },
    { gatewayId: '0016c001f153a14d', uplinkId: 2, rssi: -71, snr: 9, crcStatus: 'CRC_OK' },
  ],
  txInfo: {
    frequency: 868100000,
    modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
  },
};

const up = (fields: Record<string, unknown>) =>
  decodeChirpstackEvent('up', JSON.stringify({ ...REAL_UP, ...fields }));

describe('decodeChirpstackEvent: up', () => {
  it('decodes the lock payload of a real uplink', () => {
    expect(decodeChirpstackEvent('up', JSON.stringify(REAL_UP))).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'report',
          messageId: DEDUP,
          reportedAt: Date.parse('2025-11-21T18:33:20.123Z'),
          event: 'heartbeat',
          lock: 'closed',
          battery: 80,
          rssi: -71,
        },
      },
    });
  });

  it('reads a codec object as a native report, in preference to data', () => {
    const result = up({ object: { event: 'doorChanged', door: 'open', battery: 12, props: { temp: 3 } } });
    expect(result).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'report',
          messageId: DEDUP,
          reportedAt: Date.parse(REAL_UP.time),
          event: 'doorChanged',
          door: 'open',
          battery: 12,
          rssi: -71,
          props: { temp: 3 },
        },
      },
    });
    // The object wins even when data would not decode.
    expect(up({ object: { lock: 'open' }, data: 'AAAA' })).toMatchObject({
      ok: true,
      value: { message: { lock: 'open' } },
    });
    // Its own ts wins over the event time.
    expect(up({ object: { ts: 1763750000000 } })).toMatchObject({
      value: { message: { reportedAt: 1763750000000 } },
    });
    expect(up({ object: { battery: 300 } })).toMatchObject({
      ok: false,
      reason: 'invalid',
      detail: expect.stringMatching(/^object\.battery/),
    });
    expect(up({ object: 'x' })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('turns a lock result payload into a command result keyed by seq', () => {
    const data = Buffer.from(encodeLockResult(513, 'Failure', 4)).toString('base64');
    expect(up({ data })).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'commandResult',
          messageId: DEDUP,
          commandId: 'seq:513',
          outcome: 'Failure',
          detail: 'error code 4',
          reportedAt: Date.parse(REAL_UP.time),
        },
      },
    });
  });

  it('ignores an uplink without data or object', () => {
    expect(up({ data: undefined })).toEqual({ ok: true, value: null });
  });

  it('leaves out what it cannot read: no rxInfo, an unparseable time', () => {
    const result = up({ rxInfo: undefined, time: 'yesterday' });
    expect(result.ok && result.value?.message).toEqual({
      kind: 'report',
      messageId: DEDUP,
      event: 'heartbeat',
      lock: 'closed',
      battery: 80,
    });
    expect(up({ rxInfo: [{ rssi: 'strong' }, null, { rssi: -300 }] })).toMatchObject({ ok: true });
  });

  it('refuses bad fields and bad payloads', () => {
    expect(up({ deduplicationId: undefined })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(up({ deviceInfo: { devEui: '0102' } })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(up({ deviceInfo: undefined })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(up({ data: 'not base64!' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(up({ data: 12 })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(up({ data: 'AQ==' })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(up({ data: 'CQE=' })).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(decodeChirpstackEvent('up', '{"deduplicationId":')).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(decodeChirpstackEvent('up', '[1]')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('accepts an event of exactly the size limit and refuses one byte more', () => {
    const json = JSON.stringify(REAL_UP);
    const atLimit = `${json.slice(0, -1)}${' '.repeat(MAX_CHIRPSTACK_EVENT_BYTES - json.length)}}`;
    expect(decodeChirpstackEvent('up', atLimit).ok).toBe(true);
    expect(decodeChirpstackEvent('up', `${atLimit} `)).toMatchObject({ ok: false, reason: 'oversized' });
  });
});

describe('decodeChirpstackEvent: status, ack, txack and the rest', () => {
  it('turns status into a status report with the battery', () => {
    const event = encodeChirpstackStatus({
      applicationId: APP,
      devEui: DEV_EUI,
      deduplicationId: DEDUP,
      time: TIME,
      batteryLevel: 87.5,
    });
    expect(decodeChirpstackEvent('status', event)).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'report',
          messageId: DEDUP,
          event: 'status',
          battery: 87.5,
          reportedAt: TIME.getTime(),
        },
      },
    });
    const unavailable = encodeChirpstackStatus({
      applicationId: APP,
      devEui: DEV_EUI,
      deduplicationId: DEDUP,
      time: TIME,
      batteryLevel: null,
    });
    const result = decodeChirpstackEvent('status', unavailable);
    expect(result.ok && result.value?.message).toEqual({
      kind: 'report',
      messageId: DEDUP,
      event: 'status',
      reportedAt: TIME.getTime(),
    });
    const bad = JSON.parse(unavailable);
    bad.batteryLevelUnavailable = false;
    bad.batteryLevel = 101;
    expect(decodeChirpstackEvent('status', JSON.stringify(bad))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('turns ack into Delivered or Failure and txack into Sent', () => {
    const base = {
      applicationId: APP,
      devEui: DEV_EUI,
      deduplicationId: DEDUP,
      time: TIME,
      queueItemId: 'q-1',
      fCntDown: 3,
    };
    expect(decodeChirpstackEvent('ack', encodeChirpstackAck({ ...base, acknowledged: true }))).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'commandResult',
          messageId: DEDUP,
          commandId: 'q-1',
          outcome: 'Delivered',
          reportedAt: TIME.getTime(),
        },
      },
    });
    expect(decodeChirpstackEvent('ack', encodeChirpstackAck({ ...base, acknowledged: false }))).toMatchObject(
      {
        value: { message: { outcome: 'Failure' } },
      },
    );
    expect(
      decodeChirpstackEvent(
        'txack',
        encodeChirpstackTxack({
          applicationId: APP,
          devEui: DEV_EUI,
          time: TIME,
          queueItemId: 'q-1',
          fCntDown: 3,
          downlinkId: 99,
        }),
      ),
    ).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'commandResult',
          messageId: 'q-1:txack',
          commandId: 'q-1',
          outcome: 'Sent',
          reportedAt: TIME.getTime(),
        },
      },
    });
  });

  it('derives the ack message id from the queue item when there is no deduplicationId; a missing acknowledged is false', () => {
    const ack = { deviceInfo: { devEui: DEV_EUI }, queueItemId: 'q-2' };
    expect(decodeChirpstackEvent('ack', JSON.stringify(ack))).toMatchObject({
      ok: true,
      value: { message: { messageId: 'q-2:ack', outcome: 'Failure' } },
    });
    expect(decodeChirpstackEvent('ack', JSON.stringify({ ...ack, queueItemId: undefined }))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeChirpstackEvent('ack', JSON.stringify({ ...ack, acknowledged: 'yes' }))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('ignores join, log, location and integration events without parsing them', () => {
    for (const event of ['join', 'log', 'location', 'integration']) {
      expect(decodeChirpstackEvent(event, 'not even json')).toEqual({ ok: true, value: null });
    }
    expect(decodeChirpstackEvent('mystery', '{}')).toMatchObject({ ok: false, reason: 'unsupported' });
  });
});

describe('ChirpStack events built for the simulator', () => {
  it('encodeChirpstackUp decodes back to the same report', () => {
    const data = encodeLockReport(
      { event: 'lockChanged', lock: 'open', door: 'closed', runState: 'normal', battery: 64 },
      7,
    );
    const event = encodeChirpstackUp({
      applicationId: APP,
      devEui: '0102030405ABCDEF',
      deduplicationId: DEDUP,
      time: TIME,
      fCnt: 7,
      fPort: LOCK_FPORT,
      data,
      rssi: -88,
    });
    const parsed = JSON.parse(event);
    expect(parsed.deviceInfo.devEui).toBe(DEV_EUI);
    expect(parsed.deviceInfo.applicationId).toBe(APP);
    expect(parsed.fPort).toBe(10);
    expect(parsed.rxInfo[0].rssi).toBe(-88);
    expect(decodeChirpstackEvent('up', event)).toEqual({
      ok: true,
      value: {
        devEui: '0102030405ABCDEF',
        message: {
          kind: 'report',
          messageId: DEDUP,
          reportedAt: TIME.getTime(),
          event: 'lockChanged',
          lock: 'open',
          door: 'closed',
          runState: 'normal',
          battery: 64,
          rssi: -88,
        },
      },
    });
  });
});

describe('ChirpStack downlinks', () => {
  it('round-trips a downlink command', () => {
    const data = encodeLockCommand({ seq: 12, cmd: 'open' });
    const text = encodeChirpstackDown({
      devEui: '0102030405ABCDEF',
      confirmed: true,
      fPort: 10,
      data,
      id: 'q-9',
    });
    expect(JSON.parse(text)).toEqual({
      devEui: DEV_EUI,
      confirmed: true,
      fPort: 10,
      data: Buffer.from(data).toString('base64'),
      id: 'q-9',
    });
    expect(decodeChirpstackDown(text)).toEqual({
      ok: true,
      value: { devEui: '0102030405ABCDEF', confirmed: true, fPort: 10, data, id: 'q-9' },
    });
    const noId = encodeChirpstackDown({ devEui: DEV_EUI, confirmed: false, fPort: 10, data });
    expect(JSON.parse(noId)).not.toHaveProperty('id');
    expect(decodeChirpstackDown(noId)).toEqual({
      ok: true,
      value: { devEui: '0102030405ABCDEF', confirmed: false, fPort: 10, data },
    });
  });

  it('refuses bad downlinks', () => {
    const base = { devEui: DEV_EUI, confirmed: false, fPort: 10, data: 'AQ==' };
    for (const fields of [
      { devEui: 'xyz' },
      { confirmed: 'no' },
      { fPort: 0 },
      { fPort: 224 },
      { fPort: 1.5 },
      { data: undefined },
      { data: '@@' },
      { id: 5 },
    ]) {
      expect(
        decodeChirpstackDown(JSON.stringify({ ...base, ...fields })),
        JSON.stringify(fields),
      ).toMatchObject({
        ok: false,
        reason: 'invalid',
      });
    }
    expect(decodeChirpstackDown('{')).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('ChirpStack decoders on garbage', () => {
  it('never throw', () => {
    const valid = [
      JSON.stringify(REAL_UP),
      JSON.stringify({ ...REAL_UP, object: { lock: 'open', props: { a: 1 } } }),
      encodeChirpstackStatus({
        applicationId: APP,
        devEui: DEV_EUI,
        deduplicationId: DEDUP,
        time: TIME,
        batteryLevel: 5,
      }),
      encodeChirpstackAck({
        applicationId: APP,
        devEui: DEV_EUI,
        deduplicationId: DEDUP,
        time: TIME,
        queueItemId: 'q',
        acknowledged: true,
        fCntDown: 1,
      }),
    ];
    for (const input of garbageInputs(0x5eed_0003, valid, 800)) {
      for (const event of ['up', 'status', 'ack', 'txack']) {
        const result = decodeChirpstackEvent(event, input);
        if (!result.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(result.reason);
      }
      decodeChirpstackDown(input);
    }
  });
});
