import { PARAM_WHOLE_RANGES, paramForm } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PARAMS } from './settings.ts';

describe('built-in parameters', () => {
  it('that are numbers have a whole-number range their readers rely on, the default its fallback', () => {
    const numbers = BUILT_IN_PARAMS.filter((p) => p.valType === 'number');
    expect(numbers.map((p) => p.name).sort()).toEqual(Object.keys(PARAM_WHOLE_RANGES).sort());
    for (const p of numbers) expect(String(PARAM_WHOLE_RANGES[p.name]!.fallback), p.name).toBe(p.defVal);
  });

  it('have defaults their own rules accept', () => {
    for (const p of BUILT_IN_PARAMS) {
      const result = paramForm.safeParse({
        name: p.name,
        valType: p.valType,
        val: p.defVal,
        defVal: p.defVal,
      });
      expect(result.error?.issues ?? [], p.name).toEqual([]);
    }
  });
});
