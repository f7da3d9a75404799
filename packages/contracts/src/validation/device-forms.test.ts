import { describe, expect, it } from 'vitest';
import { unitForm } from './device-forms.ts';

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('unitForm (spec §3 Operation unit, §5)', () => {
  it('takes a whole, non-negative sort index, 0 by default', () => {
    expect(unitForm.parse({ name: 'A' }).sortIndex).toBe(0);
    expect(unitForm.parse({ name: 'A', sortIndex: '12' }).sortIndex).toBe(12);
    for (const bad of [-1, 1.5, 'abc']) {
      expect(issuesOf(unitForm.safeParse({ name: 'A', sortIndex: bad })), String(bad)).toEqual([
        'sortIndex:v.integer',
      ]);
    }
  });

  it('needs a name of at most 64 characters and limits the other texts', () => {
    expect(issuesOf(unitForm.safeParse({ name: '  ' }))).toEqual(['name:v.required']);
    expect(
      issuesOf(
        unitForm.safeParse({
          name: 'x'.repeat(65),
          menuName: 'm'.repeat(65),
          typeId: 't'.repeat(65),
          desc: 'd'.repeat(256),
        }),
      ),
    ).toEqual(['name:v.tooLong', 'menuName:v.tooLong', 'typeId:v.tooLong', 'desc:v.tooLong']);
    expect(unitForm.parse({ name: 'A', menuName: 'm'.repeat(64), desc: 'd'.repeat(255) }).name).toBe('A');
  });

  it('turns empty optional texts into null', () => {
    expect(unitForm.parse({ name: ' A ', menuName: '', typeId: '', desc: ' ' })).toMatchObject({
      name: 'A',
      menuName: null,
      typeId: null,
      desc: null,
    });
  });
});
