import { describe, expect, it } from 'vitest';
import { MASKED_VALUE, maskedParams } from './command-secrets.ts';

describe('maskedParams', () => {
  it('masks every parameter of a secret command (a permanent password, a stored PIN)', () => {
    expect(maskedParams('setPassword', { password: '20260101', slot: 2 })).toEqual({
      password: MASKED_VALUE,
      slot: MASKED_VALUE,
    });
    expect(maskedParams('setPin', { pinId: 4, pin: 123456789, pinKind: 4 })).toEqual({
      pinId: MASKED_VALUE,
      pin: MASKED_VALUE,
      pinKind: MASKED_VALUE,
    });
  });

  it('masks parameters named like a secret in any other command, and only those', () => {
    expect(maskedParams('setParam', { 'door.pin': '4321' })).toEqual({ 'door.pin': MASKED_VALUE });
    expect(maskedParams('setParam', { adminPassword: 'x', spinSpeed: 5 })).toEqual({
      adminPassword: MASKED_VALUE,
      spinSpeed: 5,
    });
    expect(maskedParams('setParam', { door_pwd: 'x', apiToken: 'y', 'a-secret': 'z' })).toEqual({
      door_pwd: MASKED_VALUE,
      apiToken: MASKED_VALUE,
      'a-secret': MASKED_VALUE,
    });
  });

  it('answers null where there is nothing (more) to mask', () => {
    expect(maskedParams('setParam', { spinSpeed: 5, spinning: true })).toBeNull();
    expect(maskedParams('open', null)).toBeNull();
    expect(maskedParams('setPassword', { password: MASKED_VALUE })).toBeNull();
  });
});
