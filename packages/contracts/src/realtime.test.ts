import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, Permission } from './permissions.ts';
import {
  CONSOLE_EVENT_KINDS,
  CONSOLE_EVENT_PERMISSIONS,
  consoleEvent,
  consoleEventTopic,
  consoleSubscription,
  mayReceiveNotification,
  operationChangeSupersedes,
  REALTIME_TIMING,
  readableConsoleKinds,
  USER_NOTIFICATION_PERMISSIONS,
  userNotification,
} from './realtime.ts';

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

describe('finding 6: live data only for the permission that reads it', () => {
  const eventKinds = consoleEvent.options.map((option) => option.shape.kind.value);
  const notificationKinds = userNotification.options.map((option) => option.shape.kind.value);

  it('declares a permission for every kind of console event, and no permission without its event', () => {
    expect([...CONSOLE_EVENT_KINDS].sort()).toEqual([...eventKinds].sort());
    for (const kind of CONSOLE_EVENT_KINDS) {
      expect(ALL_PERMISSIONS).toContain(CONSOLE_EVENT_PERMISSIONS[kind]);
    }
  });

  it('reads runtime with monitor.read, commands with deviceCommand.read, alarms with alarm.read and operation records with operationRecord.read, as the API serves them', () => {
    expect(CONSOLE_EVENT_PERMISSIONS).toEqual({
      runtime: Permission.MonitorRead,
      command: Permission.DeviceCommandRead,
      alarm: Permission.AlarmRead,
      operation: Permission.OperationRecordRead,
    });
    expect(readableConsoleKinds(new Set())).toEqual([]);
    expect(readableConsoleKinds(new Set([Permission.MonitorRead]))).toEqual(['runtime']);
    expect(readableConsoleKinds(new Set([Permission.DeviceCommandRead]))).toEqual(['command']);
    expect(readableConsoleKinds(new Set([Permission.DeviceCommandSend, Permission.DeviceRead]))).toEqual([]);
    expect(readableConsoleKinds(new Set([Permission.AlarmRead, Permission.AlarmReset]))).toEqual(['alarm']);
    expect(readableConsoleKinds(new Set([Permission.OperationRecordRead]))).toEqual(['operation']);
    expect(readableConsoleKinds(new Set([Permission.DeviceOpen, Permission.LockTaskRead]))).toEqual([]);
    expect(readableConsoleKinds(new Set(ALL_PERMISSIONS))).toEqual([
      'runtime',
      'command',
      'alarm',
      'operation',
    ]);
  });

  it('declares a permission for every kind of notification, and a commandFinished needs deviceCommand.read', () => {
    expect(Object.keys(USER_NOTIFICATION_PERMISSIONS).sort()).toEqual([...notificationKinds].sort());
    for (const kind of notificationKinds) {
      expect(ALL_PERMISSIONS).toContain(USER_NOTIFICATION_PERMISSIONS[kind]);
    }
    const finished = { kind: 'commandFinished' } as const;
    expect(mayReceiveNotification(new Set([Permission.DeviceCommandRead]), finished)).toBe(true);
    expect(mayReceiveNotification(new Set([Permission.DeviceCommandSend]), finished)).toBe(false);
    expect(mayReceiveNotification(new Set(), finished)).toBe(false);
  });
});

describe('operation record changes', () => {
  it('move a record from sent to its final result and never back', () => {
    const results = ['refused', 'sent', 'succeeded', 'failed', 'reported'] as const;
    for (const earlier of results) {
      for (const later of results) {
        const stale = later === 'sent' && earlier !== 'sent';
        expect(
          operationChangeSupersedes({ result: earlier }, { result: later }),
          `${earlier} → ${later}`,
        ).toBe(!stale);
      }
    }
  });
});
