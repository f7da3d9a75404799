import { type FeatureFlagValues, Permission, type PermissionKey } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { canCall } from '../../lib/permission/permission.tsx';
import { homeLayout as layoutFor } from './home-layout.ts';

const monitorReader: PermissionKey[] = [Permission.MonitorRead];
const nobody: PermissionKey[] = [];
const homeLayout = (flags: FeatureFlagValues, keys: PermissionKey[]) =>
  layoutFor(flags, (endpoint) => canCall({ permissions: keys, menus: [] }, flags, endpoint));

describe('homeLayout (HomePageType, spec §6)', () => {
  it('shows the personal overview for default', () => {
    expect(homeLayout({ HomePageType: 'default', SupportIoT: 'true' }, monitorReader)).toEqual({
      type: 'default',
      deviceCounters: false,
      tasksFirst: false,
    });
  });

  it('puts the lock task cards first for task', () => {
    expect(homeLayout({ HomePageType: 'task', SupportIoT: 'true' }, monitorReader)).toEqual({
      type: 'task',
      deviceCounters: false,
      tasksFirst: true,
    });
  });

  it('puts the device counters first for device, to readers of the monitor while SupportIoT is on', () => {
    expect(homeLayout({ HomePageType: 'device', SupportIoT: 'true' }, monitorReader)).toEqual({
      type: 'device',
      deviceCounters: true,
      tasksFirst: false,
    });
    expect(homeLayout({ HomePageType: 'device', SupportIoT: 'false' }, monitorReader).deviceCounters).toBe(
      false,
    );
    expect(homeLayout({ HomePageType: 'device', SupportIoT: 'true' }, nobody).deviceCounters).toBe(false);
  });

  it('reads an empty or unknown value as misconfigured (the page shows the spec error)', () => {
    for (const value of [undefined, '', 'ticket', 'DEVICE']) {
      expect(homeLayout({ HomePageType: value, SupportIoT: 'true' }, monitorReader)).toEqual({
        type: null,
        deviceCounters: false,
        tasksFirst: false,
      });
    }
  });
});
