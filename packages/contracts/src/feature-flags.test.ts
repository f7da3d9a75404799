import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from './api.ts';
import { closedFeature, FEATURE_FLAGS, flagOn, HOME_PAGE_TYPES, homePageTypeOf } from './feature-flags.ts';

describe('feature flags (spec §6)', () => {
  it('are the flags of the spec, each once, with a default of its type', () => {
    const names = FEATURE_FLAGS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const flag of FEATURE_FLAGS) {
      if (flag.valType === 'boolean') expect(['true', 'false'], flag.name).toContain(flag.defVal);
    }
    expect(homePageTypeOf(FEATURE_FLAGS.find((f) => f.name === 'HomePageType')!.defVal)).toBe('default');
  });

  it('read a switch as on only when its text is true', () => {
    expect(flagOn({ ShowCmd: 'true' }, 'ShowCmd')).toBe(true);
    for (const value of ['false', 'TRUE', '1', '', undefined])
      expect(flagOn({ ShowCmd: value }, 'ShowCmd')).toBe(false);
  });

  it('close a gate on the first switch that is off', () => {
    const flags = { SupportIoT: 'true', ShowCmd: 'false', ShowKeyInfo: 'false' };
    expect(closedFeature(flags, undefined)).toBeNull();
    expect(closedFeature(flags, [])).toBeNull();
    expect(closedFeature(flags, ['SupportIoT'])).toBeNull();
    expect(closedFeature(flags, ['SupportIoT', 'ShowCmd'])).toBe('ShowCmd');
    expect(closedFeature(flags, ['ShowKeyInfo', 'ShowCmd'])).toBe('ShowKeyInfo');
    expect(closedFeature({}, ['SupportIoT'])).toBe('SupportIoT');
  });

  it('read HomePageType as one of its layouts, or null when empty or unknown', () => {
    for (const type of HOME_PAGE_TYPES) expect(homePageTypeOf(type)).toBe(type);
    expect(homePageTypeOf(' device ')).toBe('device');
    for (const bad of ['', '  ', 'Default', 'ticket', undefined]) expect(homePageTypeOf(bad)).toBeNull();
  });

  it('gate endpoints by switches only', () => {
    const switches = new Set(FEATURE_FLAGS.filter((f) => f.valType === 'boolean').map((f) => f.name));
    const gated = ALL_ENDPOINTS.filter((e) => e.features);
    expect(gated.length).toBeGreaterThan(10);
    for (const endpoint of gated) {
      for (const flag of endpoint.features ?? []) expect(switches.has(flag), endpoint.path).toBe(true);
    }
  });
});
