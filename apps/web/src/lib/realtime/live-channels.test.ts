import type { UserInfo } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { channelIdentity } from './live-channels.ts';

const USER: UserInfo = {
  id: 'staff-7',
  name: 'Chan',
  avatar: null,
  email: null,
  telNo: null,
  deptName: null,
  roles: [],
  menus: [],
  permissions: [],
  isFirstLogin: false,
  mustChangePassword: false,
  isBuiltInAdmin: false,
  stationId: 'S-user',
};

describe('channelIdentity', () => {
  it('is the staff id, the session token and the station fetched at start-up', () => {
    expect(channelIdentity({ token: 'tok', user: USER, stationId: 'S1' })).toEqual({
      token: 'tok',
      staffId: 'staff-7',
      stationId: 'S1',
    });
  });

  it("falls back to the user's station when the start-up fetch failed", () => {
    expect(channelIdentity({ token: 'tok', user: USER, stationId: null })?.stationId).toBe('S-user');
  });

  it('is nobody while signed out, while the session is being restored, or at the forced password change', () => {
    expect(channelIdentity({ token: null, user: null, stationId: 'S1' })).toBeNull();
    expect(channelIdentity({ token: 'tok', user: null, stationId: 'S1' })).toBeNull();
    expect(channelIdentity({ token: null, user: USER, stationId: 'S1' })).toBeNull();
    expect(
      channelIdentity({ token: 'tok', user: { ...USER, mustChangePassword: true }, stationId: 'S1' }),
    ).toBeNull();
  });
});
