import { describe, expect, it } from 'vitest';
import { hasPermission } from './permission.tsx';

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
