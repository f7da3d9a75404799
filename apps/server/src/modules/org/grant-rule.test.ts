import { describe, expect, it } from 'vitest';
import {
  changedMembers,
  EVERY_KEY,
  type Grantor,
  holdsKey,
  keysBeyond,
  mergeGrantSet,
} from './grant-rule.ts';

const grantor = (...keys: string[]): Grantor => ({ isAdmin: false, permissions: new Set(keys) });
const ADMIN: Grantor = { isAdmin: true, permissions: new Set() };

describe('finding 8: a user gives or takes only the keys the user holds', () => {
  it('holds its own keys; the admin role holds every key, dynamic ones included', () => {
    const g = grantor('role.grant', 'devTypeOp:t1');
    expect(holdsKey(g, 'role.grant')).toBe(true);
    expect(holdsKey(g, 'devTypeOp:t1')).toBe(true);
    expect(holdsKey(g, 'devTypeOp:t2')).toBe(false);
    expect(holdsKey(g, 'staff.read')).toBe(false);
    expect(holdsKey(ADMIN, 'devTypeOp:any-future-type')).toBe(true);
  });

  it('names the keys of the sources the grantor does not hold, and every key for role admin', () => {
    const g = grantor('staff.read', 'device.read');
    expect(keysBeyond(g, [])).toEqual([]);
    expect(keysBeyond(g, [{ all: false, keys: ['staff.read'] }])).toEqual([]);
    expect(
      keysBeyond(g, [
        { all: false, keys: ['staff.read', 'role.grant'] },
        { all: false, keys: ['device.read', 'devTypeOp:t1', 'role.grant'] },
      ]),
    ).toEqual(['devTypeOp:t1', 'role.grant']);
    expect(keysBeyond(g, [{ all: true, keys: [] }])).toEqual([EVERY_KEY]);
    // Even a user holding every key of the contract does not hold "every key": only admin does.
    expect(keysBeyond(grantor('staff.read', 'device.read'), [{ all: true, keys: ['staff.read'] }])).toEqual([
      EVERY_KEY,
    ]);
    expect(
      keysBeyond(ADMIN, [
        { all: true, keys: [] },
        { all: false, keys: ['x.y'] },
      ]),
    ).toEqual([]);
  });

  it('refuses a grant set that adds a key the grantor does not hold', () => {
    const g = grantor('role.grant', 'staff.read');
    expect(mergeGrantSet(g, [], ['staff.read', 'param.read', 'devTypeOp:t9'])).toEqual({
      keys: ['staff.read'],
      refused: ['devTypeOp:t9', 'param.read'],
    });
    // role.grant alone cannot make its holder an administrator.
    expect(
      mergeGrantSet(grantor('role.grant'), ['role.grant'], ['role.grant', 'staff.assignRole']).refused,
    ).toEqual(['staff.assignRole']);
  });

  it('keeps the keys beyond the grantor as they were: neither removed nor added', () => {
    const g = grantor('staff.read', 'device.read');
    // A console that shows only the grantor's keys sends none of the others: they stay.
    expect(mergeGrantSet(g, ['param.read', 'staff.read'], ['device.read'])).toEqual({
      keys: ['device.read', 'param.read'],
      refused: [],
    });
    // Sending them back unchanged is no addition.
    expect(mergeGrantSet(g, ['param.read'], ['param.read', 'staff.read'])).toEqual({
      keys: ['param.read', 'staff.read'],
      refused: [],
    });
    // Emptying the set removes only what the grantor holds.
    expect(mergeGrantSet(g, ['param.read', 'device.read', 'devTypeOp:t1'], [])).toEqual({
      keys: ['devTypeOp:t1', 'param.read'],
      refused: [],
    });
  });

  it('lets the admin role set any keys', () => {
    expect(mergeGrantSet(ADMIN, ['a.b', 'c.d'], ['c.d', 'devTypeOp:t1', 'e.f'])).toEqual({
      keys: ['c.d', 'devTypeOp:t1', 'e.f'],
      refused: [],
    });
  });

  it('tells what a change gives and takes', () => {
    expect(changedMembers(['a', 'b', 'c'], ['b', 'c', 'd'])).toEqual(['d', 'a']);
    expect(changedMembers(['a'], ['a'])).toEqual([]);
    expect(changedMembers([], ['x', 'x'])).toEqual(['x']);
  });
});
