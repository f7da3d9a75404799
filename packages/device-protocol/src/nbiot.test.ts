import { describe, expect, it } from 'vitest';
import { encodeLockReport, encodeLockResult } from './lock-payload.ts';
import type { CommandOutcome } from './message.ts';
import {
  decodeNbCallback,
  encodeNbCommandStatus,
  encodeNbReport,
  NB_PLATFORMS,
  type NbPlatform,
  nbCommandOutcome,
  nbPlatformDeviceIdOf,
} from './nbiot.ts';
import { mulberry32, randomJson } from './test-support.ts';

const IMEI = '864012345678901';
const TIME = new Date('2025-11-21T18:33:20.000Z');
const MS = TIME.getTime();
const DATA = encodeLockReport({ event: 'heartbeat', lock: 'closed', door: 'closed', battery: 76 }, 5);
const REPORT = { event: 'heartbeat', lock: 'closed', door: 'closed', battery: 76 };

describe('nbCommandOutcome', () => {
  it.each<[string, CommandOutcome]>([
    ['PENDING', 'NB_Pending'],
    ['SENT', 'NB_Send'],
    ['DELIVERED', 'NB_Delivered'],
    ['SUCCESSFUL', 'NB_Successful'],
    ['FAILED', 'NB_Failed'],
    ['EXPIRED', 'NB_Expired'],
    ['TIMEOUT', 'NB_Timeout'],
    ['CANCELED', 'NB_Canceled'],
    ['pending', 'NB_Pending'],
    ['Sent', 'NB_Send'],
    ['TIME_OUT', 'NB_Timeout'],
    ['CANCELLED', 'NB_Canceled'],
    ['SUCCESS', 'NB_Successful'],
    ['DEFAULT', 'NB_UnKnow'],
    ['', 'NB_UnKnow'],
    ['constructor', 'NB_UnKnow'],
    ['__proto__', 'NB_UnKnow'],
  ])('%s → %s', (status, outcome) => {
    expect(nbCommandOutcome(status)).toBe(outcome);
  });
});

describe('decodeNbCallback: data reports', () => {
  it.each(NB_PLATFORMS)('%s: an encoded report decodes to the lock report', (platform) => {
    const body = encodeNbReport(platform, { imei: IMEI, messageId: 'req-1', time: TIME, data: DATA });
    // The body must survive the HTTP layer's JSON round trip unchanged.
    const result = decodeNbCallback(platform, JSON.parse(JSON.stringify(body)));
    const messageId = platform === 'ChinaUnicom' ? 'req-1' : `${IMEI}:${MS}:0`;
    expect(result).toEqual({
      ok: true,
      value: [{ imei: IMEI, message: { kind: 'report', messageId, reportedAt: MS, ...REPORT } }],
    });
  });

  it.each(NB_PLATFORMS)('%s: a lock result payload becomes a command result keyed by seq', (platform) => {
    const data = encodeLockResult(300, 'Failure', 2);
    const result = decodeNbCallback(
      platform,
      encodeNbReport(platform, { imei: IMEI, messageId: 'r', time: TIME, data }),
    );
    expect(result).toMatchObject({
      ok: true,
      value: [
        {
          imei: IMEI,
          message: {
            kind: 'commandResult',
            commandId: 'seq:300',
            outcome: 'Failure',
            detail: 'error code 2',
            reportedAt: MS,
          },
        },
      ],
    });
  });

  it('models the platforms believably', () => {
    const telecom = encodeNbReport('ChinaTelecom', {
      imei: IMEI,
      messageId: 'x',
      time: TIME,
      data: DATA,
    }) as Record<string, unknown>;
    expect(telecom).toMatchObject({
      messageType: 'dataReport',
      IMEI,
      timestamp: MS,
      payload: { APPdata: Buffer.from(DATA).toString('base64') },
    });
    const unicom = encodeNbReport('ChinaUnicom', { imei: IMEI, messageId: 'x', time: TIME, data: DATA });
    expect(unicom).toMatchObject({
      notifyType: 'deviceDataChanged',
      requestId: 'x',
      nodeId: IMEI,
      service: { eventTime: '20251121T183320Z' },
    });
    const mobile = encodeNbReport('ChinaMobile', { imei: IMEI, messageId: 'x', time: TIME, data: DATA });
    expect(mobile).toMatchObject({
      msg: { type: 1, imei: IMEI, at: MS, value: Buffer.from(DATA).toString('hex') },
    });
  });

  it('decodes batches: an array body, OneNET msg arrays, OceanConnect deviceDatasChanged', () => {
    const telecom = [0, 1].map((i) =>
      encodeNbReport('ChinaTelecom', { imei: IMEI, messageId: 'x', time: new Date(MS + i), data: DATA }),
    );
    expect(decodeNbCallback('ChinaTelecom', telecom)).toMatchObject({
      ok: true,
      value: [
        { message: { messageId: `${IMEI}:${MS}:0` } },
        { message: { messageId: `${IMEI}:${MS + 1}:1` } },
      ],
    });

    const hex = Buffer.from(DATA).toString('hex');
    const mobile = {
      msg: [
        { type: 1, imei: IMEI, ds_id: '19_0_0', at: MS, value: hex },
        { type: 2, imei: IMEI, status: 1, at: MS, login_type: 10 },
        { type: 1, imei: IMEI, ds_id: '3200_0_5750', at: MS, value: hex },
        { type: 1, imei: IMEI, ds_id: '3303_0_5700', at: MS, value: 21.5 },
      ],
      msg_signature: 'sig',
      nonce: 'n',
    };
    expect(decodeNbCallback('ChinaMobile', mobile)).toMatchObject({
      ok: true,
      value: [{ message: { messageId: `${IMEI}:${MS}:0` } }, { message: { messageId: `${IMEI}:${MS}:2` } }],
    });

    const service = (hexData: string) => ({
      serviceId: 'LockData',
      data: { hexData },
      eventTime: '20251121T183320Z',
    });
    const unicom = {
      notifyType: 'deviceDatasChanged',
      requestId: 'req-7',
      nodeId: IMEI,
      services: [service(hex), service(hex)],
    };
    expect(decodeNbCallback('ChinaUnicom', unicom)).toMatchObject({
      ok: true,
      value: [{ message: { messageId: 'req-7', battery: 76 } }, { message: { messageId: 'req-7:1' } }],
    });
    const noRequestId = { ...unicom, requestId: undefined };
    expect(decodeNbCallback('ChinaUnicom', noRequestId)).toMatchObject({
      ok: true,
      value: [{ message: { messageId: `${IMEI}:${MS}:0` } }, { message: { messageId: `${IMEI}:${MS}:1` } }],
    });
  });

  it('ignores notifications that are not lock data', () => {
    expect(
      decodeNbCallback('ChinaTelecom', {
        messageType: 'deviceOnlineOfflineReport',
        IMEI,
        eventType: 1,
        timestamp: MS,
      }),
    ).toEqual({ ok: true, value: [] });
    expect(decodeNbCallback('ChinaUnicom', { notifyType: 'deviceInfoChanged', deviceId: 'd' })).toEqual({
      ok: true,
      value: [],
    });
    expect(decodeNbCallback('ChinaMobile', { msg: { type: 2, imei: IMEI, status: 0, at: MS } })).toEqual({
      ok: true,
      value: [],
    });
    expect(decodeNbCallback('ChinaMobile', { msg: [] })).toEqual({ ok: true, value: [] });
  });

  it('refuses a bad IMEI, timestamp or payload, naming the field', () => {
    const good = encodeNbReport('ChinaTelecom', {
      imei: IMEI,
      messageId: 'x',
      time: TIME,
      data: DATA,
    }) as Record<string, unknown>;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...good, IMEI: '86401234567890' }, 'invalid', /^IMEI/],
      [{ ...good, IMEI: '8640123456789012' }, 'invalid', /^IMEI/],
      [{ ...good, IMEI: 864012345678901 }, 'invalid', /^IMEI/],
      [{ ...good, timestamp: 'now' }, 'invalid', /^timestamp/],
      [{ ...good, timestamp: 1000 }, 'invalid', /^timestamp/],
      [{ ...good, payload: {} }, 'invalid', /^payload\.APPdata/],
      [{ ...good, payload: { APPdata: '%%%' } }, 'invalid', /^data/],
      [{ ...good, payload: { APPdata: 'AQ==' } }, 'malformed', /^data/],
      [{ ...good, payload: { APPdata: 'BwE=' } }, 'unsupported', /^data/],
    ];
    for (const [body, reason, detail] of cases) {
      const result = decodeNbCallback('ChinaTelecom', body);
      expect(result, JSON.stringify(body)).toMatchObject({
        ok: false,
        reason,
        detail: expect.stringMatching(detail),
      });
    }
    expect(
      decodeNbCallback('ChinaMobile', { msg: { type: 1, imei: IMEI, at: MS, value: 'abc' } }),
    ).toMatchObject({ ok: false, reason: 'invalid' });
    expect(
      decodeNbCallback('ChinaUnicom', {
        notifyType: 'deviceDataChanged',
        nodeId: IMEI,
        service: { data: { rawData: 'AQ==' }, eventTime: 'soon' },
      }),
    ).toMatchObject({ ok: false, reason: 'invalid', detail: expect.stringMatching(/eventTime/) });
  });

  it('refuses the whole batch when one item is bad, saying which', () => {
    const good = encodeNbReport('ChinaTelecom', { imei: IMEI, messageId: 'x', time: TIME, data: DATA });
    expect(decodeNbCallback('ChinaTelecom', [good, { ...(good as object), IMEI: 'x' }])).toMatchObject({
      ok: false,
      reason: 'invalid',
      detail: expect.stringMatching(/^\[1\] IMEI/),
    });
  });

  it('refuses bodies that are not objects and unknown platforms', () => {
    for (const body of [null, 'text', 42, true, undefined]) {
      expect(decodeNbCallback('ChinaTelecom', body)).toMatchObject({ ok: false, reason: 'malformed' });
    }
    expect(decodeNbCallback('ChinaTelecom', [1])).toMatchObject({ ok: false, reason: 'malformed' });
    expect(decodeNbCallback('Vodafone' as NbPlatform, {})).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
  });
});

describe('decodeNbCallback: command statuses', () => {
  const STATUSES: Array<[string, CommandOutcome]> = [
    ['PENDING', 'NB_Pending'],
    ['SENT', 'NB_Send'],
    ['DELIVERED', 'NB_Delivered'],
    ['SUCCESSFUL', 'NB_Successful'],
    ['FAILED', 'NB_Failed'],
    ['EXPIRED', 'NB_Expired'],
    ['TIMEOUT', 'NB_Timeout'],
    ['CANCELED', 'NB_Canceled'],
    ['DEFAULT', 'NB_UnKnow'],
  ];

  for (const platform of NB_PLATFORMS) {
    it.each(STATUSES)(`${platform}: %s → %s`, (status, outcome) => {
      const body = encodeNbCommandStatus(platform, { imei: IMEI, commandId: '4711', status, time: TIME });
      const result = decodeNbCallback(platform, JSON.parse(JSON.stringify(body)));
      expect(result).toMatchObject({
        ok: true,
        value: [
          {
            imei: IMEI,
            message: {
              kind: 'commandResult',
              commandId: '4711',
              outcome,
              reportedAt: MS,
              messageId: `${IMEI}:${MS}:0:cmd:4711:${outcome}`,
            },
          },
        ],
      });
      if (outcome === 'NB_UnKnow' && result.ok) {
        expect(result.value[0]?.message).toMatchObject({ detail: expect.stringMatching(/^platform status/) });
      }
    });
  }

  it('tells two states of one command in the same second apart, and a repeated state from its first', () => {
    const idOf = (status: string) => {
      const body = encodeNbCommandStatus('ChinaUnicom', { imei: IMEI, commandId: 'c-9', status, time: TIME });
      const result = decodeNbCallback('ChinaUnicom', body);
      return result.ok ? result.value[0]?.message.messageId : undefined;
    };
    expect(idOf('DELIVERED')).not.toBe(idOf('SUCCESSFUL'));
    expect(idOf('DELIVERED')).toBe(idOf('DELIVERED'));
  });

  it('keeps a UUID command id and CTWing numeric task ids as text', () => {
    const uuid = '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4b1c00';
    for (const platform of NB_PLATFORMS) {
      const body = encodeNbCommandStatus(platform, {
        imei: IMEI,
        commandId: uuid,
        status: 'SENT',
        time: TIME,
      });
      expect(decodeNbCallback(platform, body)).toMatchObject({
        ok: true,
        value: [{ message: { commandId: uuid } }],
      });
    }
    expect(
      encodeNbCommandStatus('ChinaTelecom', { imei: IMEI, commandId: '12', status: 'SENT', time: TIME }),
    ).toMatchObject({ taskId: 12 });
  });

  it('clips long platform details and refuses a status without a command id or status', () => {
    const body = {
      messageType: 'commandResponse',
      IMEI,
      taskId: 1,
      timestamp: MS,
      result: { resultCode: 'FAILED', resultDetail: 'x'.repeat(500) },
    };
    const result = decodeNbCallback('ChinaTelecom', body);
    expect(result.ok && result.value[0]?.message).toMatchObject({ detail: 'x'.repeat(200) });
    expect(decodeNbCallback('ChinaTelecom', { ...body, taskId: undefined })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeNbCallback('ChinaTelecom', { ...body, result: {} })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(
      decodeNbCallback('ChinaMobile', { msg: { type: 7, imei: IMEI, cmd_id: 'c', at: MS } }),
    ).toMatchObject({ ok: false, reason: 'invalid' });
    expect(
      decodeNbCallback('ChinaMobile', {
        msg: { type: 7, imei: IMEI, cmd_id: 'c', at: MS, confirm_status: 3 },
      }),
    ).toMatchObject({
      ok: true,
      value: [{ message: { outcome: 'NB_Failed', detail: 'confirm_status 3' } }],
    });
  });
});

describe('decodeNbCallback on garbage', () => {
  it('never throws', () => {
    const random = mulberry32(0x5eed_0006);
    const valid = NB_PLATFORMS.flatMap((platform) => [
      encodeNbReport(platform, { imei: IMEI, messageId: 'r', time: TIME, data: DATA }),
      encodeNbCommandStatus(platform, { imei: IMEI, commandId: 'c', status: 'SENT', time: TIME }),
    ]);
    for (let i = 0; i < 1500; i++) {
      let body: unknown = randomJson(random);
      if (i % 2 === 1) {
        // A valid body with one field replaced by garbage, at the top or one level down.
        const copy = JSON.parse(JSON.stringify(valid[i % valid.length])) as Record<string, unknown>;
        const keys = Object.keys(copy);
        const key = keys[Math.floor(random() * keys.length)] as string;
        const inner = copy[key];
        if (inner && typeof inner === 'object' && random() < 0.5) {
          const innerKeys = Object.keys(inner);
          (inner as Record<string, unknown>)[innerKeys[Math.floor(random() * innerKeys.length)] ?? 'x'] =
            randomJson(random);
        } else copy[key] = randomJson(random);
        body = copy;
      }
      for (const platform of NB_PLATFORMS) {
        const result = decodeNbCallback(platform, body);
        if (!result.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(result.reason);
      }
    }
  });
});

describe('decodeNbCallback: NUL characters (finding 3)', () => {
  it('refuses a body whose messages would hold U+0000, saying where', () => {
    const status = encodeNbCommandStatus('ChinaUnicom', {
      imei: IMEI,
      commandId: 'c\u00001',
      status: 'DELIVERED',
      time: TIME,
    });
    expect(decodeNbCallback('ChinaUnicom', status)).toEqual({
      ok: false,
      reason: 'invalid',
      detail: '[0] commandId: NUL character',
    });
    const detail = encodeNbCommandStatus('ChinaTelecom', {
      imei: IMEI,
      commandId: '12',
      status: 'FAILED',
      time: TIME,
    }) as { result: { resultDetail: string | null } };
    detail.result.resultDetail = 'jam\u0000med';
    expect(decodeNbCallback('ChinaTelecom', detail)).toMatchObject({ ok: false, reason: 'invalid' });
    const props = encodeNbReport('ChinaMobile', {
      imei: IMEI,
      messageId: 'm',
      time: TIME,
      data: encodeLockReport({ event: 'status', props: { note: 'a\u0000b' } }),
    });
    expect(decodeNbCallback('ChinaMobile', props)).toEqual({
      ok: false,
      reason: 'invalid',
      detail: '[0] props.note: NUL character',
    });
  });
});

describe('nbPlatformDeviceIdOf (where commands to the device are addressed)', () => {
  const report = (platform: NbPlatform, imei = IMEI) =>
    encodeNbReport(platform, { imei, messageId: 'm-1', time: TIME, data: DATA });

  it.each(NB_PLATFORMS)("%s: a callback names the device's platform id", (platform) => {
    const id = nbPlatformDeviceIdOf(platform, report(platform), IMEI);
    expect(id).toBe(platform === 'ChinaMobile' ? String(Number(IMEI.slice(-9))) : `15012345${IMEI}`);
    // command states name it too
    const status = encodeNbCommandStatus(platform, {
      imei: IMEI,
      commandId: '7',
      status: 'SENT',
      time: TIME,
    });
    expect(nbPlatformDeviceIdOf(platform, status, IMEI)).toBe(id);
  });

  it('finds the item of the IMEI in a batch, and nothing for another IMEI or a body without an id', () => {
    const other = '864000000000009';
    const batch = [report('ChinaTelecom', other), report('ChinaTelecom')];
    expect(nbPlatformDeviceIdOf('ChinaTelecom', batch, IMEI)).toBe(`15012345${IMEI}`);
    expect(nbPlatformDeviceIdOf('ChinaTelecom', [report('ChinaTelecom', other)], IMEI)).toBeUndefined();
    expect(nbPlatformDeviceIdOf('ChinaUnicom', { nodeId: IMEI, deviceId: { no: 1 } }, IMEI)).toBeUndefined();
    expect(nbPlatformDeviceIdOf('ChinaMobile', { msg: [{ imei: IMEI }] }, IMEI)).toBeUndefined();
    expect(nbPlatformDeviceIdOf('ChinaUnicom', 'text', IMEI)).toBeUndefined();
  });
});
