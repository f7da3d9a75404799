import { describe, expect, it } from 'vitest';
import { consoleEventTopic, consoleSubscription, REALTIME_TIMING } from './realtime.ts';

describe('the live channels (spec §4 Realtime, §9)', () => {
  it('keeps the shipped MQTT and WebSocket timing of the spec', () => {
    expect(REALTIME_TIMING.mqttKeepaliveSeconds).toBe(30);
    expect(REALTIME_TIMING.mqttReconnectMs).toBe(5_000);
    expect(REALTIME_TIMING.mqttConnectTimeoutMs).toBe(10_000);
    expect(REALTIME_TIMING.mqttSubscribeTimeoutMs).toBe(10_000);
    expect(REALTIME_TIMING.mqttResubscribeMs).toBe(3_000);
    expect(REALTIME_TIMING.socketHeartbeatMs).toBe(15_000);
    expect(REALTIME_TIMING.socketReconnectMs).toBe(5_000);
  });

  it('publishes below /UIOT/{stationId}/ and subscribes to all of it', () => {
    expect(consoleEventTopic('S1', 'runtime')).toBe('/UIOT/S1/runtime');
    expect(consoleEventTopic('S1', 'command')).toBe('/UIOT/S1/command');
    expect(consoleSubscription('S1')).toBe('/UIOT/S1/#');
  });
});
