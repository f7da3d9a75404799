import { lockCodeForm } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { lockCodeToForm, newLockCodeValues, upperCased } from './lock-code-form.ts';

describe('lock code dialog values', () => {
  it('starts in effect without time limits, for its device', () => {
    expect(newLockCodeValues('d1')).toEqual({
      deviceId: 'd1',
      effect: true,
      effectiveTime: null,
      expirationTime: null,
    });
  });

  it('edits a row with the shared schema (RFID upper-cased, end after start)', () => {
    const values = lockCodeToForm({
      id: 'c1',
      deviceId: 'd1',
      dnbs: null,
      rfidCode: 'a1b2c3d4e5f6',
      rfidType: null,
      blueAddr: 'aa-bb-cc-dd-ee-ff',
      effect: true,
      effectiveTime: '2026-01-01T00:00:00.000Z',
      expirationTime: '2026-02-01T00:00:00.000Z',
      remark: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(values).not.toHaveProperty('id');
    const parsed = lockCodeForm.parse(values);
    expect(parsed.rfidCode).toBe('A1B2C3D4E5F6');
    expect(parsed.blueAddr).toBe('AA:BB:CC:DD:EE:FF');
    const reversed = lockCodeForm.safeParse({
      ...values,
      effectiveTime: values.expirationTime,
      expirationTime: values.effectiveTime,
    });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.path).toEqual(['expirationTime']);
  });

  it('upper-cases the RFID while it is typed', () => {
    expect(upperCased('a1b2')).toBe('A1B2');
    expect(upperCased(undefined)).toBeUndefined();
  });
});
