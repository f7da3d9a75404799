import { Permission, type PermissionKey } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { visibleDetailTabs } from './detail-tabs.ts';

const holding =
  (...keys: PermissionKey[]) =>
  (key: PermissionKey) =>
    keys.includes(key);

describe('visibleDetailTabs', () => {
  it('shows every tab that exists now, in the spec order, to a user holding every key', () => {
    expect(visibleDetailTabs(() => true)).toEqual(['lockCodes', 'messages', 'collection', 'params']);
  });

  it('shows each tab only to holders of its key', () => {
    expect(visibleDetailTabs(holding(Permission.MonitorRead))).toEqual(['collection']);
    expect(visibleDetailTabs(holding(Permission.MonitorRead, Permission.IotMessageRead))).toEqual([
      'messages',
      'collection',
    ]);
    expect(visibleDetailTabs(holding(Permission.DeviceRead))).toEqual(['lockCodes']);
  });

  it('shows param config for sending or for reading the commands', () => {
    expect(visibleDetailTabs(holding(Permission.DeviceCommandSend))).toEqual(['params']);
    expect(visibleDetailTabs(holding(Permission.DeviceCommandRead))).toEqual(['params']);
  });

  it('shows nothing without keys', () => {
    expect(visibleDetailTabs(holding())).toEqual([]);
  });
});
