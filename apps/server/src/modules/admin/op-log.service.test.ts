import { describe, expect, it } from 'vitest';
import { callInput, describeArgs } from './op-log.service.ts';

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

  it('bounds the size of the text, and of each string in it', () => {
    const long = describeArgs({ notes: 'x'.repeat(50_000) }, [])!;
    expect(JSON.parse(long)).toEqual({ notes: `${'x'.repeat(1000)}…` });
    const many = describeArgs(
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, 'y'.repeat(900)])),
      [],
    )!;
    expect(many.length).toBe(4001);
    expect(many.endsWith('…')).toBe(true);
    expect(describeArgs({ notes: 'short' }, [])!.endsWith('…')).toBe(false);
  });

  it('describes any nesting without recursing into it, deeper levels shown as …', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const text = describeArgs({ deep }, [])!;
    expect(text.length).toBeLessThan(200);
    expect(text).toBe(`{"deep":${'{"a":'.repeat(7)}"…"${'}'.repeat(8)}`);
  });

  it('reads at most 500 values of wide input', () => {
    const wide = { list: Array.from({ length: 100_000 }, (_, i) => i) };
    const parsed = JSON.parse(describeArgs(wide, [])!);
    expect(parsed.list).toHaveLength(500);
    expect(parsed.list.at(-1)).toBe('…');
  });

  it('never throws, whatever the values', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const throwing = {
      get boom(): string {
        throw new Error('no');
      },
    };
    const shapes: unknown[] = [
      { big: 10n, when: new Date('2026-01-02T03:04:05Z'), bytes: new Uint8Array(16), fn: () => 1 },
      { when: new Date(Number.NaN), sym: Symbol('s'), nothing: undefined },
      cyclic,
      throwing,
      'text',
      42,
    ];
    for (const shape of shapes) expect(() => describeArgs(shape, [])).not.toThrow();
    expect(JSON.parse(describeArgs(shapes[0], [])!)).toEqual({
      big: '10',
      when: '2026-01-02T03:04:05.000Z',
      bytes: '(16 bytes)',
    });
    expect(describeArgs(throwing, [])).toBe('"(arguments not readable)"');
  });
});

describe('callInput', () => {
  it('joins the fields of the query and of an object body', () => {
    expect(callInput({ id: '1' }, { name: 'n' })).toEqual({ id: '1', name: 'n' });
    expect(callInput(undefined, { name: 'n' })).toEqual({ name: 'n' });
    expect(callInput({ id: '1' }, undefined)).toEqual({ id: '1' });
  });

  it('keeps a body that is not an object under `body`', () => {
    expect(callInput({ staffId: 's' }, ['r1', 'r2'])).toEqual({ staffId: 's', body: ['r1', 'r2'] });
    expect(callInput(undefined, 'text')).toEqual({ body: 'text' });
  });
});
