import { describe, expect, it } from 'vitest';
import { batteryBand } from './iot.ts';

describe('batteryBand', () => {
  it('reads low below 20 %, medium from 20 % up to 60 %, high above', () => {
    expect([0, 19.9, 20, 60, 60.1, 100].map(batteryBand)).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
    ]);
  });

  it('has no band for an unknown level', () => {
    expect([null, undefined, Number.NaN].map(batteryBand)).toEqual([null, null, null]);
  });
});
