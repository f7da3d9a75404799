import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret.ts';

describe('sameSecret', () => {
  it('is true for equal secrets only, whatever their lengths', () => {
    expect(sameSecret('telecom-callback-secret-1', 'telecom-callback-secret-1')).toBe(true);
    expect(sameSecret('telecom-callback-secret-1', 'telecom-callback-secret-2')).toBe(false);
    expect(sameSecret('short', 'a-much-longer-secret')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('', 'x')).toBe(false);
  });
});
