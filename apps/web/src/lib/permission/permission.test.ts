import { api } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { canCall, type EndpointGate, hasPermission } from './permission.tsx';

const user = { permissions: ['staff.read'], menus: ['Home', 'Profile'] };

describe('hasPermission', () => {
  it('grants held button keys and menu names', () => {
    expect(hasPermission(user, 'staff.read')).toBe(true);
    expect(hasPermission(user, 'Profile')).toBe(true);
  });

  it('refuses other keys and a signed-out user', () => {
    expect(hasPermission(user, 'oplog.read')).toBe(false);
    expect(hasPermission(null, 'Home')).toBe(false);
  });

  it('fails when no key is given (spec: need button permissions!)', () => {
    expect(() => hasPermission(user, '')).toThrow('需要按钮权限！');
  });
});

describe('canCall', () => {
  const flags = { ShowKeyInfo: 'true', SupportIoT: 'false' };
  const gate = (access: EndpointGate['access'], features?: EndpointGate['features']): EndpointGate => ({
    access,
    ...(features ? { features } : {}),
  });

  it("takes the key from the endpoint's access declaration", () => {
    expect(canCall(user, flags, api.staff.queryPage)).toBe(true);
    expect(canCall(user, flags, api.staff.del)).toBe(false);
    expect(canCall(user, flags, gate({ anyOf: ['oplog.read', 'staff.read'] }))).toBe(true);
    expect(canCall(user, flags, gate({ anyOf: ['oplog.read'] }))).toBe(false);
  });

  it('lets every signed-in user call a signed-in endpoint, and everybody a public one', () => {
    expect(canCall(user, flags, gate('signedIn'))).toBe(true);
    expect(canCall(null, flags, gate('signedIn'))).toBe(false);
    expect(canCall(null, flags, gate('public'))).toBe(true);
  });

  it('refuses an endpoint whose feature flag is off, as the server does', () => {
    expect(canCall(user, flags, gate('staff.read', ['ShowKeyInfo']))).toBe(true);
    expect(canCall(user, flags, gate('staff.read', ['ShowKeyInfo', 'SupportIoT']))).toBe(false);
    expect(canCall(user, {}, gate('staff.read', ['ShowKeyInfo']))).toBe(false);
  });
});
