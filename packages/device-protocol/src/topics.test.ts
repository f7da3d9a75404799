import { describe, expect, it } from 'vitest';
import {
  CHIRPSTACK_EVENT_FILTER,
  chirpstackDownTopic,
  chirpstackEventTopic,
  deviceTopic,
  NATIVE_ACK_FILTER,
  NATIVE_UP_FILTER,
  parseChirpstackTopic,
  parseDeviceTopic,
} from './topics.ts';

describe('native device topics', () => {
  it('builds and parses dev/{stationId}/{code}/{channel}', () => {
    expect(deviceTopic('S1', 'L-0001', 'up')).toBe('dev/S1/L-0001/up');
    expect(deviceTopic('S1', 'L-0001', 'down')).toBe('dev/S1/L-0001/down');
    for (const channel of ['up', 'down', 'ack'] as const) {
      expect(parseDeviceTopic(deviceTopic('st-9', 'A1B2C3D4E5F6', channel))).toEqual({
        stationId: 'st-9',
        code: 'A1B2C3D4E5F6',
        channel,
      });
    }
  });

  it('refuses ids that would change the topic structure or act as wildcards', () => {
    expect(() => deviceTopic('S/1', 'L', 'up')).toThrow(RangeError);
    expect(() => deviceTopic('S1', 'L+', 'up')).toThrow(RangeError);
    expect(() => deviceTopic('S1', '#', 'up')).toThrow(RangeError);
    expect(() => deviceTopic('', 'L', 'up')).toThrow(RangeError);
    expect(() => deviceTopic('S1', 'x'.repeat(65), 'up')).toThrow(RangeError);
  });

  it('parses nothing but the exact shape', () => {
    for (const topic of [
      'dev/S1/L1/status',
      'dev/S1/L1',
      'dev/S1/L1/up/extra',
      'dev//L1/up',
      'dev/S1//up',
      'device/S1/L1/up',
      '/dev/S1/L1/up',
      'dev/S1/+/up',
      '',
    ]) {
      expect(parseDeviceTopic(topic), topic).toBeNull();
    }
  });

  it('has the subscription filters of ARCHITECTURE §5', () => {
    expect(NATIVE_UP_FILTER).toBe('dev/+/+/up');
    expect(NATIVE_ACK_FILTER).toBe('dev/+/+/ack');
  });
});

describe('ChirpStack topics', () => {
  it('builds event and down topics with the devEUI lower-case', () => {
    expect(chirpstackEventTopic('app-1', '0102030405ABCDEF', 'up')).toBe(
      'application/app-1/device/0102030405abcdef/event/up',
    );
    expect(chirpstackDownTopic('app-1', '0102030405ABCDEF')).toBe(
      'application/app-1/device/0102030405abcdef/command/down',
    );
    expect(() => chirpstackDownTopic('app-1', '0102')).toThrow(RangeError);
    expect(() => chirpstackEventTopic('a/b', '0102030405060708', 'up')).toThrow(RangeError);
  });

  it('parses event topics, devEUI upper-case, any event name', () => {
    expect(parseChirpstackTopic('application/4f2a/device/0102030405abcdef/event/txack')).toEqual({
      applicationId: '4f2a',
      devEui: '0102030405ABCDEF',
      event: 'txack',
    });
    expect(parseChirpstackTopic('application/a/device/0102030405060708/event/somethingNew')?.event).toBe(
      'somethingNew',
    );
    for (const topic of [
      'application/a/device/01020304050607/event/up',
      'application/a/device/010203040506070g/event/up',
      'application/a/device/0102030405060708/command/down',
      'application/a/device/0102030405060708/event',
      'application/a/device/0102030405060708/event/up/x',
      'application//device/0102030405060708/event/up',
      'app/a/device/0102030405060708/event/up',
    ]) {
      expect(parseChirpstackTopic(topic), topic).toBeNull();
    }
    expect(CHIRPSTACK_EVENT_FILTER).toBe('application/+/device/+/event/+');
  });
});
