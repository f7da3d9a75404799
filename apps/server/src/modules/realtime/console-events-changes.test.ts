import { commandChange, runtimeChange, userNotification } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import type { DeviceCommandRecord } from '../commands/commands.schema.ts';
import {
  byStation,
  commandChangeOf,
  commandFinishedNotificationOf,
  offlineChangeOf,
  runtimeChangeOf,
} from './console-events-changes.ts';

const T = 1_763_000_000_000;

function commandRecord(overrides: Partial<DeviceCommandRecord> = {}): DeviceCommandRecord {
  return {
    id: 'c1',
    deviceId: 'd1',
    cmdCode: 'setPassword',
    name: 'Send the permanent password',
    params: { password: '123456' },
    expireTime: new Date(T + 60_000),
    maxRetransmit: 2,
    attempts: 1,
    sendFlag: true,
    sendTime: new Date(T),
    lastSentAt: new Date(T),
    transport: 'mqtt',
    receiveId: 'c1',
    platformDeviceId: null,
    state: 'Success',
    detail: 'the lock said something',
    failureCode: null,
    failureParams: null,
    staffId: 's1',
    staffName: 'Staff',
    nextCheckAt: null,
    finishedAt: new Date(T + 2_000),
    createdAt: new Date(T),
    updatedAt: new Date(T + 2_000),
    ...overrides,
  };
}

describe('runtimeChangeOf', () => {
  it('carries online, the collection and report times and the fields the batch had, never props', () => {
    const change = runtimeChangeOf({
      deviceId: 'd1',
      stationId: 'S1',
      lastCollectTime: T,
      lastMessageId: 'm9',
      reportedAt: T - 40,
      lockState: 'open',
      battery: 80,
      props: { secret: 'x' },
      devEui: 'AABB',
      chirpstackApplicationId: 'app',
    });
    expect(change).toEqual({
      deviceId: 'd1',
      messageId: 'm9',
      online: true,
      lastCollectTime: new Date(T).toISOString(),
      reportTime: new Date(T - 40).toISOString(),
      lockState: 'open',
      battery: 80,
    });
    expect(runtimeChange.strict().safeParse(change).success).toBe(true);
  });

  it('leaves out what the batch did not carry', () => {
    expect(
      runtimeChangeOf({ deviceId: 'd1', stationId: 'S1', lastCollectTime: T, lastMessageId: 'm1' }),
    ).toEqual({ deviceId: 'd1', messageId: 'm1', online: true, lastCollectTime: new Date(T).toISOString() });
  });
});

describe('offlineChangeOf', () => {
  it('is offline, without a message id, with the last collection time and since when it is offline', () => {
    expect(
      offlineChangeOf({
        deviceId: 'd1',
        stationId: 'S1',
        lastCollectTime: new Date(T),
        offlineSince: new Date(T + 600_000),
      }),
    ).toEqual({
      deviceId: 'd1',
      messageId: null,
      online: false,
      lastCollectTime: new Date(T).toISOString(),
      offlineSince: new Date(T + 600_000).toISOString(),
    });
  });
});

describe('commandChangeOf', () => {
  it('carries the delivery state only: no parameters, no device words', () => {
    const change = commandChangeOf(commandRecord());
    expect(change).toEqual({
      id: 'c1',
      deviceId: 'd1',
      cmdCode: 'setPassword',
      name: 'Send the permanent password',
      state: 'Success',
      attempts: 1,
      sendFlag: true,
      updateTime: new Date(T + 2_000).toISOString(),
    });
    expect(commandChange.strict().safeParse(change).success).toBe(true);
    expect(JSON.stringify(change)).not.toContain('123456');
  });
});

describe('commandFinishedNotificationOf', () => {
  it('names the command, the device and its final state', () => {
    const notification = commandFinishedNotificationOf(commandRecord(), 'Gate 3');
    expect(notification).toEqual({
      kind: 'commandFinished',
      commandId: 'c1',
      deviceId: 'd1',
      deviceName: 'Gate 3',
      name: 'Send the permanent password',
      state: 'Success',
      failure: null,
    });
    expect(JSON.stringify(notification)).not.toContain('123456');
  });

  it('carries why the last send failed', () => {
    const notification = commandFinishedNotificationOf(
      commandRecord({ state: 'NB_Timeout', failureCode: 1118, failureParams: { code: 'L1' } }),
      null,
    );
    expect(notification.failure).toEqual({ code: 1118, params: { code: 'L1' } });
    expect(userNotification.safeParse(notification).success).toBe(true);
    expect(
      commandFinishedNotificationOf(commandRecord({ failureCode: 1117, failureParams: null }), null).failure,
    ).toEqual({ code: 1117, params: {} });
  });
});

describe('byStation', () => {
  it('groups in order and skips items without a station', () => {
    const groups = byStation(
      [
        { s: 'A', v: 1 },
        { s: null, v: 2 },
        { s: 'B', v: 3 },
        { s: 'A', v: 4 },
      ],
      (x) => x.s,
      (x) => x.v,
    );
    expect([...groups]).toEqual([
      ['A', [1, 4]],
      ['B', [3]],
    ]);
  });
});
