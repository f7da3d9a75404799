import { describe, expect, it } from 'vitest';
import { describeArgs } from './op-log.service.ts';

describe('describeArgs', () => {
  it('keeps ordinary fields as JSON', () => {
    expect(JSON.parse(describeArgs({ email: 'a@b.cn', telNo: '13800138000' }, [])!)).toEqual({
      email: 'a@b.cn',
      telNo: '13800138000',
    });
  });

  it('redacts secret fields at the top level', () => {
    const text = describeArgs({ name: 'alice', pwd: 'Secret-123' }, ['pwd'])!;
    expect(JSON.parse(text)).toEqual({ name: 'alice', pwd: '***' });
    expect(text).not.toContain('Secret-123');
  });

  it('redacts secret fields at any depth, inside objects and arrays', () => {
    const args = {
      user: { profile: { pwd: 'Deep-Secret-1' } },
      list: [{ pwd: 'Array-Secret-2', keep: 1 }, [{ pwd: 'Nested-Secret-3' }]],
    };
    const text = describeArgs(args, ['pwd'])!;
    expect(JSON.parse(text)).toEqual({
      user: { profile: { pwd: '***' } },
      list: [{ pwd: '***', keep: 1 }, [{ pwd: '***' }]],
    });
    for (const secret of ['Deep-Secret-1', 'Array-Secret-2', 'Nested-Secret-3'])
      expect(text).not.toContain(secret);
  });

  it('matches secret field names case-insensitively', () => {
    const text = describeArgs({ OLDPWD: 'A-Secret-1', NewPwd: 'B-Secret-2', confirmpwd: 'C-Secret-3' }, [
      'oldPwd',
      'newPwd',
      'confirmPwd',
    ])!;
    expect(JSON.parse(text)).toEqual({ OLDPWD: '***', NewPwd: '***', confirmpwd: '***' });
  });

  it('redacts a secret field whose value is an object as a whole', () => {
    const text = describeArgs({ token: { value: 'Token-Secret' } }, ['token'])!;
    expect(JSON.parse(text)).toEqual({ token: '***' });
  });

  it('returns null when there is nothing to describe', () => {
    expect(describeArgs(undefined, [])).toBeNull();
    expect(describeArgs(null, [])).toBeNull();
    expect(describeArgs({}, ['pwd'])).toBeNull();
  });

  it('bounds the size of the text', () => {
    const text = describeArgs({ notes: 'x'.repeat(50_000) }, [])!;
    expect(text.length).toBeLessThanOrEqual(4001);
    expect(text.endsWith('…')).toBe(true);
    expect(describeArgs({ notes: 'short' }, [])!.endsWith('…')).toBe(false);
  });
});
