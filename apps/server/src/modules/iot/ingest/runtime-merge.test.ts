import type { DeviceMessage } from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import {
  type AcceptedMessage,
  distinctMessages,
  EVENT_CLOCK_AHEAD_MS,
  EVENT_CLOCK_BEHIND_MS,
  eventTime,
  mergeRuntimeUpdates,
} from './runtime-merge.ts';

function report(
  deviceId: string,
  messageId: string,
  receivedAt: number,
  fields: Partial<Extract<DeviceMessage, { kind: 'report' }>> = {},
): AcceptedMessage {
  return { deviceId, messageId, receivedAt, message: { kind: 'report', messageId, ...fields } };
}

describe('mergeRuntimeUpdates', () => {
  it('keeps the latest value of every field per device, in receive order', () => {
    const updates = mergeRuntimeUpdates([
      report('d1', 'm2', 2_000, { lock: 'closed', battery: 80 }),
      report('d1', 'm1', 1_000, { lock: 'open', door: 'open', battery: 81, rssi: -70 }),
      report('d1', 'm3', 3_000, { door: 'closed' }),
    ]);
    expect(updates).toEqual([
      {
        deviceId: 'd1',
        lastCollectTime: 3_000,
        lastMessageId: 'm3',
        lockState: 'closed',
        doorState: 'closed',
        battery: 80,
        rssi: -70,
      },
    ]);
  });

  it('leaves out what no message said, so the stored value stays', () => {
    const [update] = mergeRuntimeUpdates([report('d1', 'm1', 5, { battery: 50 })]);
    expect(update).toEqual({ deviceId: 'd1', lastCollectTime: 5, lastMessageId: 'm1', battery: 50 });
    expect('lockState' in update!).toBe(false);
  });

  it('counts a command result as a sign of life only', () => {
    const [update] = mergeRuntimeUpdates([
      {
        deviceId: 'd1',
        messageId: 'a1',
        receivedAt: 9,
        message: { kind: 'commandResult', messageId: 'a1', commandId: 'c1', outcome: 'Success' },
      },
    ]);
    expect(update).toEqual({ deviceId: 'd1', lastCollectTime: 9, lastMessageId: 'a1' });
  });

  it('merges extension properties key by key and keeps ties in batch order', () => {
    const [update] = mergeRuntimeUpdates([
      report('d1', 'm1', 7, { props: { temp: 20, tamper: false } }),
      report('d1', 'm2', 7, { props: { temp: 21 }, runState: 'damaged' }),
    ]);
    expect(update?.props).toEqual({ temp: 21, tamper: false });
    expect(update?.runState).toBe('damaged');
    expect(update?.lastMessageId).toBe('m2');
  });

  it('keeps ties in batch order when the batch is out of receive order', () => {
    const [update] = mergeRuntimeUpdates([
      report('d1', 'm2', 7, { battery: 2 }),
      report('d1', 'm0', 5, { battery: 0 }),
      report('d1', 'm1', 7, { battery: 1 }),
    ]);
    expect(update?.battery).toBe(1);
    expect(update?.lastMessageId).toBe('m1');
  });

  it('gives one update per device, sorted by device id, with the devEUI seen', () => {
    const updates = mergeRuntimeUpdates([
      report('b', 'm1', 1),
      { ...report('a', 'm1', 2), devEui: '0011223344556677', chirpstackApplicationId: 'app-1' },
      report('c', 'm1', 3),
      report('a', 'm2', 4),
    ]);
    expect(updates.map((u) => u.deviceId)).toEqual(['a', 'b', 'c']);
    expect(updates[0]?.devEui).toBe('0011223344556677');
    expect(updates[0]?.chirpstackApplicationId).toBe('app-1');
    expect(updates[1]?.chirpstackApplicationId).toBeUndefined();
  });

  it('collects the damage reports of each device, with their receive times', () => {
    const updates = mergeRuntimeUpdates([
      report('d1', 'm1', 1_000, { event: 'damage' }),
      report('d1', 'm2', 2_000, { event: 'heartbeat' }),
      report('d1', 'm3', 3_000, { event: 'damage', runState: 'damaged' }),
      report('d2', 'm4', 4_000, { event: 'lowBattery', battery: 5 }),
    ]);
    expect(updates[0]!.damageReports).toEqual([
      { messageId: 'm1', at: 1_000 },
      { messageId: 'm3', at: 3_000 },
    ]);
    expect(updates[1]).not.toHaveProperty('damageReports');
  });

  it('collects every opening a lock reported, even one closed again later in the batch', () => {
    const updates = mergeRuntimeUpdates([
      report('d1', 'm1', 1_000, { event: 'lockChanged', lock: 'open' }),
      report('d1', 'm2', 2_000, { event: 'lockChanged', lock: 'closed' }),
      report('d1', 'm3', 3_000, { event: 'status', lock: 'open' }),
      report('d1', 'm4', 4_000, { event: 'lockChanged', lock: 'open' }),
      report('d2', 'm5', 5_000, { event: 'lockChanged', lock: 'closed' }),
    ]);
    expect(updates[0]!.unlocks).toEqual([
      { messageId: 'm1', at: 1_000, receivedAt: 1_000 },
      { messageId: 'm4', at: 4_000, receivedAt: 4_000 },
    ]);
    // A status report of an open lock is no new opening.
    expect(updates[1]).not.toHaveProperty('unlocks');
  });

  it('collects the offline-PIN reports with their reference, which stays out of the properties', () => {
    const updates = mergeRuntimeUpdates([
      report('d1', 'm1', 1_000, {
        event: 'pinUsed',
        lock: 'open',
        props: { pinRef: '0100000000079c89', temp: 20 },
      }),
      report('d1', 'm2', 2_000, { event: 'pinLockout' }),
      report('d2', 'm3', 3_000, { event: 'heartbeat', props: { pinRef: 'kept' } }),
    ]);
    expect(updates[0]!.pinReports).toEqual([
      { messageId: 'm1', at: 1_000, event: 'pinUsed', ref: '0100000000079c89' },
      { messageId: 'm2', at: 2_000, event: 'pinLockout', ref: null },
    ]);
    expect(updates[0]!.props).toEqual({ temp: 20 });
    // A PIN use is no `lockChanged` opening: the pins module records it.
    expect(updates[0]).not.toHaveProperty('unlocks');
    expect(updates[1]).not.toHaveProperty('pinReports');
  });
});

describe('distinctMessages', () => {
  it('drops a repeated message id of the same device, not of another device', () => {
    const result = distinctMessages([
      { deviceId: 'd1', messageId: 'x' },
      { deviceId: 'd1', messageId: 'x' },
      { deviceId: 'd2', messageId: 'x' },
      { deviceId: 'd1', messageId: 'y' },
    ]);
    expect(result).toEqual([
      { deviceId: 'd1', messageId: 'x' },
      { deviceId: 'd2', messageId: 'x' },
      { deviceId: 'd1', messageId: 'y' },
    ]);
  });

  it('drops each repeated id of a device that sent several', () => {
    const ids = ['x', 'y', 'x', 'z', 'y', 'z', 'w'];
    const result = distinctMessages(ids.map((messageId) => ({ deviceId: 'd1', messageId })));
    expect(result.map((m) => m.messageId)).toEqual(['x', 'y', 'z', 'w']);
  });
});

describe('eventTime', () => {
  const received = Date.UTC(2026, 10, 27, 12);

  it("believes the device's clock within 30 days before and 5 minutes after the receipt, edges included", () => {
    expect(eventTime(received - 3_600_000, received)).toBe(received - 3_600_000);
    expect(eventTime(received - EVENT_CLOCK_BEHIND_MS, received)).toBe(received - EVENT_CLOCK_BEHIND_MS);
    expect(eventTime(received + EVENT_CLOCK_AHEAD_MS, received)).toBe(received + EVENT_CLOCK_AHEAD_MS);
  });

  it('takes the receive time without a device time or outside those bounds (a clock never set)', () => {
    expect(eventTime(undefined, received)).toBe(received);
    expect(eventTime(received - EVENT_CLOCK_BEHIND_MS - 1, received)).toBe(received);
    expect(eventTime(received + EVENT_CLOCK_AHEAD_MS + 1, received)).toBe(received);
    expect(eventTime(Date.UTC(2000, 0, 1), received)).toBe(received);
  });

  it('dates the openings, PIN reports and damage a lock reported late by its own clock', () => {
    const hourAgo = received - 3_600_000;
    const [update] = mergeRuntimeUpdates([
      report('d1', 'm1', received, { event: 'lockChanged', lock: 'open', reportedAt: hourAgo }),
      report('d1', 'm2', received, { event: 'pinUsed', reportedAt: hourAgo + 1 }),
      report('d1', 'm3', received, { event: 'damage', reportedAt: Date.UTC(2000, 0, 1) }),
    ]);
    expect(update!.unlocks).toEqual([{ messageId: 'm1', at: hourAgo, receivedAt: received }]);
    expect(update!.pinReports).toEqual([{ messageId: 'm2', at: hourAgo + 1, event: 'pinUsed', ref: null }]);
    expect(update!.damageReports).toEqual([{ messageId: 'm3', at: received }]);
    // The runtime data's collection time stays the receive time.
    expect(update!.lastCollectTime).toBe(received);
  });
});
