import { Permission, type PermissionKey } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { canCall } from '../../lib/permission/permission.tsx';
import { visibleDetailTabs } from './detail-tabs.ts';

const ALL = Object.values(Permission);
const ON = { SupportIoT: 'true', SupportRfid: 'true', ShowCmd: 'true' };
const tabsOf = (keys: readonly PermissionKey[], flags: Record<string, string> = ON) =>
  visibleDetailTabs((endpoint) => canCall({ permissions: [...keys], menus: [] }, flags, endpoint));

describe('visibleDetailTabs', () => {
  it('shows every tab that exists now, in the spec order, to a user holding every key', () => {
    expect(tabsOf(ALL)).toEqual([
      'lockCodes',
      'messages',
      'operations',
      'collection',
      'alarms',
      'pins',
      'params',
    ]);
  });

  it('shows each tab only to holders of its key', () => {
    expect(tabsOf([Permission.MonitorRead])).toEqual(['collection']);
    expect(tabsOf([Permission.MonitorRead, Permission.IotMessageRead])).toEqual(['messages', 'collection']);
    expect(tabsOf([Permission.DeviceRead])).toEqual(['lockCodes']);
    expect(tabsOf([Permission.AlarmRead])).toEqual(['alarms']);
    expect(tabsOf([Permission.OperationRecordRead])).toEqual(['operations']);
    expect(tabsOf([Permission.PinRead])).toEqual(['pins']);
  });

  it('shows param config for sending or for reading the commands', () => {
    expect(tabsOf([Permission.DeviceCommandSend])).toEqual(['params']);
    expect(tabsOf([Permission.DeviceCommandRead])).toEqual(['params']);
  });

  it('takes param config away while ShowCmd is off, the lock codes while SupportRfid is off (spec §6)', () => {
    expect(tabsOf(ALL, { ...ON, ShowCmd: 'false' })).toEqual([
      'lockCodes',
      'messages',
      'operations',
      'collection',
      'alarms',
      'pins',
    ]);
    expect(tabsOf(ALL, { SupportIoT: 'true', ShowCmd: 'true' })).toEqual([
      'messages',
      'operations',
      'collection',
      'alarms',
      'pins',
      'params',
    ]);
  });

  it('shows nothing without keys', () => {
    expect(tabsOf([])).toEqual([]);
  });
});
