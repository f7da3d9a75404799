import { ALL_PERMISSIONS, Permission } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { consoleIdentity } from './console-identity.ts';

describe('console identity on the broker', () => {
  const user = {
    staffId: 'staff-1',
    tokenHash: 'a'.repeat(64),
    permissions: new Set<string>([Permission.MonitorRead]),
    mustChangePassword: false,
  };

  it('is the station console of the staff member the token belongs to, reading what its permissions read', () => {
    expect(consoleIdentity(user, 'staff-1', 'UIOT-001')).toEqual({
      kind: 'console',
      stationId: 'UIOT-001',
      session: 'a'.repeat(64),
      kinds: ['runtime'],
    });
  });

  it('finding 6: reads no kind without the permissions of any, every kind with all of them', () => {
    expect(consoleIdentity({ ...user, permissions: new Set() }, 'staff-1', 'S')?.kinds).toEqual([]);
    expect(
      consoleIdentity({ ...user, permissions: new Set([Permission.DeviceCommandRead]) }, 'staff-1', 'S')
        ?.kinds,
    ).toEqual(['command']);
    expect(
      consoleIdentity({ ...user, permissions: new Set(ALL_PERMISSIONS) }, 'staff-1', 'S')?.kinds,
    ).toEqual(['runtime', 'command', 'alarm', 'operation']);
  });

  it('is refused for an unknown token, another username, or a user held at the forced password change', () => {
    expect(consoleIdentity(null, 'staff-1', 'UIOT-001')).toBeNull();
    expect(consoleIdentity(user, 'staff-2', 'UIOT-001')).toBeNull();
    expect(consoleIdentity(user, undefined, 'UIOT-001')).toBeNull();
    expect(consoleIdentity({ ...user, mustChangePassword: true }, 'staff-1', 'UIOT-001')).toBeNull();
  });
});
