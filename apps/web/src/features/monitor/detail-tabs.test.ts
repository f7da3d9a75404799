import { Permission, type PermissionKey } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { visibleDetailTabs } from './detail-tabs.ts';

const holding =
  (...keys: PermissionKey[]) =>
  (key: PermissionKey) =>
    keys.includes(key);
const ON = { SupportRfid: 'true', ShowCmd: 'true' };

describe('visibleDetailTabs', () => {
  it('shows every tab that exists now, in the spec order, to a user holding every key', () => {
    expect(visibleDetailTabs(() => true, ON)).toEqual(['lockCodes', 'messages', 'collection', 'params']);
  });

  it('shows each tab only to holders of its key', () => {
    expect(visibleDetailTabs(holding(Permission.MonitorRead), ON)).toEqual(['collection']);
    expect(visibleDetailTabs(holding(Permission.MonitorRead, Permission.IotMessageRead), ON)).toEqual([
      'messages',
      'collection',
    ]);
    expect(visibleDetailTabs(holding(Permission.DeviceRead), ON)).toEqual(['lockCodes']);
  });

  it('shows param config for sending or for reading the commands', () => {
    expect(visibleDetailTabs(holding(Permission.DeviceCommandSend), ON)).toEqual(['params']);
    expect(visibleDetailTabs(holding(Permission.DeviceCommandRead), ON)).toEqual(['params']);
  });

  it('takes param config away while ShowCmd is off, the lock codes while SupportRfid is off (spec §6)', () => {
    expect(visibleDetailTabs(() => true, { ...ON, ShowCmd: 'false' })).toEqual([
      'lockCodes',
      'messages',
      'collection',
    ]);
    expect(visibleDetailTabs(() => true, { ShowCmd: 'true' })).toEqual(['messages', 'collection', 'params']);
  });

  it('shows nothing without keys', () => {
    expect(visibleDetailTabs(holding(), ON)).toEqual([]);
  });
});
