import { describe, expect, it } from 'vitest';
import { passwordGuidance } from './password-guidance.ts';

describe('password guidance of the registration', () => {
  it('lists nothing for a password that meets both rules', () => {
    expect(passwordGuidance('Tram-Depot-58', 'chan.tai.man')).toEqual([]);
  });

  it('names the basic rule instead of "too short"', () => {
    expect(passwordGuidance('Ab1', 'x')).toEqual(['v.passwordRule']);
  });

  it('adds the strong policy problems', () => {
    expect(passwordGuidance('Qzx12345', 'x')).toEqual(['v.pwSequence']);
    expect(passwordGuidance('Wongkm-2026', 'wongkm')).toEqual(['v.pwContainsUserName']);
    expect(passwordGuidance('Xk#pq!wz', 'x')).toEqual(['v.passwordRule']);
  });
});
