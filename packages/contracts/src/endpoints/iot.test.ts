import { describe, expect, it } from 'vitest';
import { batteryBand } from './iot.ts';

describe('batteryBand', () => {
  it('reads low below 20 %, medium from 20 % up to 60 %, high from 60 % (ranges start ≤ v < end)', () => {
    expect([0, 19.9, 20, 59.9, 60, 100].map((b) => batteryBand(b))).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
    ]);
  });

  it('reads the bands of the power levels when given', () => {
    const scale = { lowBelow: 30, highFrom: 70, fromLevels: true };
    expect([29.99, 30, 69.99, 70].map((b) => batteryBand(b, scale))).toEqual([
      'low',
      'medium',
      'medium',
      'high',
    ]);
  });

  it('has no band for an unknown level', () => {
    expect([null, undefined, Number.NaN].map((b) => batteryBand(b))).toEqual([null, null, null]);
  });
});
