import { CONDITION_TYPES, type ConditionType, type LogicType, type PropValueType } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  asReported,
  type EvaluatedItem,
  evaluateItem,
  evaluateItems,
  type PropertySnapshot,
  type Verdict,
} from './warn-rule-evaluator.ts';

const snapshot: PropertySnapshot = {
  master: {
    lockState: 'closed',
    doorState: 'open',
    battery: 20,
    rssi: -95,
    runState: 'normal',
    online: true,
  },
  extension: { temperature: 41.5, smoke: 'true', water: false, mode: 'auto', label: '20' },
};

/** An item on a Master property, or on an Extension property when `master` is false. */
const item = (
  valType: PropValueType,
  propCode: string,
  propVal: string,
  conditionType: ConditionType,
  master: boolean,
): EvaluatedItem => ({
  propCode,
  propOrigin: master ? 'Master' : 'Extension',
  propVal,
  valType,
  conditionType,
});
const number = (propCode: string, conditionType: ConditionType, propVal: string, master = true) =>
  item('number', propCode, propVal, conditionType, master);
const text = (propCode: string, propVal: string, master = true) =>
  item('string', propCode, propVal, 'Eq', master);
const bool = (propCode: string, propVal: string, master = true) =>
  item('boolean', propCode, propVal, 'Eq', master);

describe('a number item', () => {
  // battery is 20: each condition below, equal, and above the reported value.
  const expected: Record<ConditionType, [Verdict, Verdict, Verdict]> = {
    Eq: ['fails', 'holds', 'fails'],
    Ge: ['holds', 'holds', 'fails'],
    Gt: ['holds', 'fails', 'fails'],
    Le: ['fails', 'holds', 'holds'],
    Lt: ['fails', 'fails', 'holds'],
  };
  for (const condition of CONDITION_TYPES) {
    it(`compares by ${condition} at, below and above the value`, () => {
      const got = ['19', '20', '21'].map((v) => evaluateItem(number('battery', condition, v), snapshot));
      expect(got).toEqual(expected[condition]);
    });
  }

  it('compares negative and fractional values numerically, not as text', () => {
    expect(evaluateItem(number('rssi', 'Lt', '-90'), snapshot)).toBe('holds');
    expect(evaluateItem(number('rssi', 'Lt', '-100'), snapshot)).toBe('fails');
    expect(evaluateItem(number('temperature', 'Gt', '41.4', false), snapshot)).toBe('holds');
    expect(evaluateItem(number('temperature', 'Ge', '100', false), snapshot)).toBe('fails');
  });

  it('is unknown when the reported value is not a number or the propVal does not read as one', () => {
    expect(evaluateItem(number('label', 'Eq', '20', false), snapshot)).toBe('unknown');
    expect(evaluateItem(number('water', 'Eq', '0', false), snapshot)).toBe('unknown');
    expect(evaluateItem(number('battery', 'Lt', 'low'), snapshot)).toBe('unknown');
    expect(evaluateItem(number('battery', 'Lt', ' '), snapshot)).toBe('unknown');
    const nan = { master: { battery: Number.NaN }, extension: {} };
    expect(evaluateItem(number('battery', 'Lt', '20'), nan)).toBe('unknown');
  });
});

describe('a text item', () => {
  it('compares exactly', () => {
    expect(evaluateItem(text('doorState', 'open'), snapshot)).toBe('holds');
    expect(evaluateItem(text('doorState', 'closed'), snapshot)).toBe('fails');
    expect(evaluateItem(text('doorState', 'Open'), snapshot)).toBe('fails');
    expect(evaluateItem(text('mode', 'auto', false), snapshot)).toBe('holds');
    expect(evaluateItem(text('mode', 'auto ', false), snapshot)).toBe('fails');
  });

  it('compares by equality only, and only with a reported text', () => {
    expect(evaluateItem({ ...text('doorState', 'open'), conditionType: 'Ge' }, snapshot)).toBe('unknown');
    expect(evaluateItem(text('temperature', '41.5', false), snapshot)).toBe('unknown');
  });
});

describe('a boolean item', () => {
  it('reads true and false, reported as booleans or as text', () => {
    expect(evaluateItem(bool('online', 'true'), snapshot)).toBe('holds');
    expect(evaluateItem(bool('online', 'false'), snapshot)).toBe('fails');
    expect(evaluateItem(bool('smoke', 'true', false), snapshot)).toBe('holds');
    expect(evaluateItem(bool('water', 'false', false), snapshot)).toBe('holds');
    expect(evaluateItem(bool('water', 'true', false), snapshot)).toBe('fails');
  });

  it('is unknown for other values, other conditions or a propVal that is not true or false', () => {
    expect(evaluateItem(bool('mode', 'true', false), snapshot)).toBe('unknown');
    expect(evaluateItem(bool('temperature', 'true', false), snapshot)).toBe('unknown');
    expect(evaluateItem({ ...bool('online', 'true'), conditionType: 'Gt' }, snapshot)).toBe('unknown');
    expect(evaluateItem(bool('online', 'TRUE'), snapshot)).toBe('unknown');
  });
});

describe('where a value comes from', () => {
  it('reads Master items from the device and Extension items from attached devices, never across', () => {
    const both: PropertySnapshot = { master: { battery: 90 }, extension: { battery: 10 } };
    expect(evaluateItem(number('battery', 'Lt', '20'), both)).toBe('fails');
    expect(evaluateItem(number('battery', 'Lt', '20', false), both)).toBe('holds');
    expect(evaluateItem(number('temperature', 'Gt', '0'), snapshot)).toBe('unknown');
  });

  it('is unknown for a property not reported yet', () => {
    const silent: PropertySnapshot = { master: {}, extension: {} };
    expect(evaluateItem(text('doorState', 'open'), silent)).toBe('unknown');
    expect(evaluateItem(number('humidity', 'Gt', '0', false), snapshot)).toBe('unknown');
  });

  it('does not take inherited object members for reported values', () => {
    expect(evaluateItem(text('constructor', 'x'), snapshot)).toBe('unknown');
    expect(evaluateItem(text('toString', 'x', false), snapshot)).toBe('unknown');
  });
});

describe('combining items', () => {
  const holds = text('doorState', 'open');
  const fails = text('doorState', 'closed');
  const unknown = text('humidity', 'x', false);
  const cases: Array<[LogicType, EvaluatedItem[], Verdict]> = [
    ['AND', [holds], 'holds'],
    ['AND', [holds, holds], 'holds'],
    ['AND', [holds, fails], 'fails'],
    ['AND', [unknown, fails], 'fails'],
    ['AND', [holds, unknown], 'unknown'],
    ['AND', [fails, fails], 'fails'],
    ['OR', [fails], 'fails'],
    ['OR', [fails, fails], 'fails'],
    ['OR', [fails, holds], 'holds'],
    ['OR', [unknown, holds], 'holds'],
    ['OR', [fails, unknown], 'unknown'],
    ['OR', [holds, holds], 'holds'],
  ];
  for (const [logic, items, result] of cases) {
    const names = items.map((i) => evaluateItem(i, snapshot)).join(' ');
    it(`${logic} of ${names} ${result === 'unknown' ? 'is unknown' : result}`, () => {
      expect(evaluateItems(items, logic, snapshot)).toBe(result);
    });
  }

  it('is unknown with no items, whatever the logic, so an empty rule never raises', () => {
    expect(evaluateItems([], 'AND', snapshot)).toBe('unknown');
    expect(evaluateItems([], 'OR', snapshot)).toBe('unknown');
  });

  it('mixes Master and Extension items', () => {
    const items = [number('battery', 'Le', '20'), number('temperature', 'Gt', '40', false)];
    expect(evaluateItems(items, 'AND', snapshot)).toBe('holds');
    const cooler = { ...snapshot, extension: { temperature: 30 } };
    expect(evaluateItems(items, 'AND', cooler)).toBe('fails');
    expect(evaluateItems(items, 'OR', cooler)).toBe('holds');
  });
});

describe('asReported', () => {
  const stored: PropertySnapshot = {
    master: {
      lockState: 'closed',
      doorState: 'closed',
      battery: 80,
      rssi: -70,
      runState: 'lowPower',
      online: false,
    },
    extension: { temperature: 20, smoke: 'false' },
  };

  it('takes each field the report said over the stored one, and keeps the others', () => {
    expect(asReported(stored, { battery: 5 })).toEqual({
      master: { ...stored.master, battery: 5, online: true },
      extension: stored.extension,
    });
    expect(asReported(stored, { lockState: 'open', doorState: 'open', rssi: -100 }).master).toEqual({
      lockState: 'open',
      doorState: 'open',
      battery: 80,
      rssi: -100,
      runState: 'lowPower',
      online: true,
    });
  });

  it('merges extension properties key by key, and leaves the stored snapshot alone', () => {
    const before = structuredClone(stored);
    expect(asReported(stored, { props: { smoke: 'true', water: true } }).extension).toEqual({
      temperature: 20,
      smoke: 'true',
      water: true,
    });
    expect(stored).toEqual(before);
  });

  it('lets a rule raise on what one report said although a later one is stored (a transient fault)', () => {
    const low = number('battery', 'Lt', '20');
    expect(evaluateItem(low, stored)).toBe('fails');
    expect(evaluateItem(low, asReported(stored, { battery: 5 }))).toBe('holds');
    expect(evaluateItem(bool('online', 'true'), asReported(stored, {}))).toBe('holds');
  });
});
