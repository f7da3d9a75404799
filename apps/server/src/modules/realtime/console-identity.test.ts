import { describe, expect, it } from 'vitest';
import { consoleIdentity } from './console-identity.ts';

describe('console identity on the broker', () => {
  const user = { staffId: 'staff-1', mustChangePassword: false };

  it('is the station console of the staff member the token belongs to', () => {
    expect(consoleIdentity(user, 'staff-1', 'UIOT-001')).toEqual({ kind: 'console', stationId: 'UIOT-001' });
  });

  it('is refused for an unknown token, another username, or a user held at the forced password change', () => {
    expect(consoleIdentity(null, 'staff-1', 'UIOT-001')).toBeNull();
    expect(consoleIdentity(user, 'staff-2', 'UIOT-001')).toBeNull();
    expect(consoleIdentity(user, undefined, 'UIOT-001')).toBeNull();
    expect(consoleIdentity({ ...user, mustChangePassword: true }, 'staff-1', 'UIOT-001')).toBeNull();
  });
});
