import { devTypeOpKey, Permission } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { type DeviceOperator, mayOperateDeviceType, SERVER_OPERATOR } from './device-operation.ts';

const user = (...keys: string[]): DeviceOperator => ({ isAdmin: false, permissions: new Set(keys) });

/** Padlocks (a main type) with two sub types; cabinets, a main type without sub types. */
const PADLOCK = { typeId: 'padlock', mainTypeId: 'padlock' };
const NB_PADLOCK = { typeId: 'padlock-nb', mainTypeId: 'padlock' };
const LORA_PADLOCK = { typeId: 'padlock-lora', mainTypeId: 'padlock' };
const CABINET = { typeId: 'cabinet', mainTypeId: 'cabinet' };

describe('mayOperateDeviceType (DevTypeOp grants, spec §6)', () => {
  it('refuses a user without any DevTypeOp grant, whatever other keys it holds', () => {
    const sender = user(Permission.DeviceCommandSend, Permission.DeviceRegister, Permission.DeviceRead);
    for (const type of [PADLOCK, NB_PADLOCK, CABINET]) expect(mayOperateDeviceType(sender, type)).toBe(false);
  });

  it('allows the type granted, and no other main type', () => {
    const operator = user(devTypeOpKey('cabinet'));
    expect(mayOperateDeviceType(operator, CABINET)).toBe(true);
    expect(mayOperateDeviceType(operator, PADLOCK)).toBe(false);
    expect(mayOperateDeviceType(operator, NB_PADLOCK)).toBe(false);
  });

  it('lets a grant on a main type cover the main type and every sub type under it', () => {
    const operator = user(devTypeOpKey('padlock'));
    expect(mayOperateDeviceType(operator, PADLOCK)).toBe(true);
    expect(mayOperateDeviceType(operator, NB_PADLOCK)).toBe(true);
    expect(mayOperateDeviceType(operator, LORA_PADLOCK)).toBe(true);
    expect(mayOperateDeviceType(operator, CABINET)).toBe(false);
  });

  it('lets a grant on a sub type cover that sub type only: not its main type, not its siblings', () => {
    const operator = user(devTypeOpKey('padlock-nb'));
    expect(mayOperateDeviceType(operator, NB_PADLOCK)).toBe(true);
    expect(mayOperateDeviceType(operator, PADLOCK)).toBe(false);
    expect(mayOperateDeviceType(operator, LORA_PADLOCK)).toBe(false);
  });

  it('reads the type alone when its main type is unknown', () => {
    expect(mayOperateDeviceType(user(devTypeOpKey('padlock')), { typeId: 'x', mainTypeId: null })).toBe(
      false,
    );
    expect(mayOperateDeviceType(user(devTypeOpKey('x')), { typeId: 'x', mainTypeId: null })).toBe(true);
  });

  it('does not read a grant of another kind as a type grant', () => {
    expect(mayOperateDeviceType(user('padlock', 'devTypeOp:', 'devtypeop:padlock'), PADLOCK)).toBe(false);
  });

  it('lets role admin (and the server itself) operate every type without a grant', () => {
    const admin: DeviceOperator = { isAdmin: true, permissions: new Set() };
    for (const type of [PADLOCK, NB_PADLOCK, CABINET]) {
      expect(mayOperateDeviceType(admin, type)).toBe(true);
      expect(mayOperateDeviceType(SERVER_OPERATOR, type)).toBe(true);
    }
  });
});
