import type { DeviceTypeNode } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  deviceCategoryLabel,
  deviceCategoryOptions,
  deviceTypeMatches,
  deviceTypeOptions,
  mainTypeOptions,
} from './device-type-tree.ts';

const type = (id: string, name: string, code: string, children: DeviceTypeNode[] = []): DeviceTypeNode => ({
  id,
  name,
  code,
  parentId: null,
  category: 'IoT',
  reportInterval: 3600,
  heartbeatInterval: 300,
  sortIndex: 0,
  desc: null,
  deviceCount: 0,
  children: children.map((child) => ({ ...child, parentId: id })),
});

const TREE = [
  type('padlock', 'Padlock', 'PL', [
    type('nb', 'NB padlock', 'PL-NB'),
    type('lora', 'LoRa padlock', 'PL-LR'),
  ]),
  type('cabinet', 'Cabinet lock', 'CAB'),
];

describe('deviceTypeOptions', () => {
  it('offers every type, sub types under their main type, without the excluded one', () => {
    expect(deviceTypeOptions(TREE)).toEqual([
      {
        value: 'padlock',
        title: 'Padlock',
        children: [
          { value: 'nb', title: 'NB padlock' },
          { value: 'lora', title: 'LoRa padlock' },
        ],
      },
      { value: 'cabinet', title: 'Cabinet lock' },
    ]);
    expect(deviceTypeOptions(TREE, 'padlock')).toEqual([{ value: 'cabinet', title: 'Cabinet lock' }]);
  });
});

describe('mainTypeOptions', () => {
  it('offers only main types (the parents a sub type can have), without the type itself', () => {
    expect(mainTypeOptions(TREE)).toEqual([
      { value: 'padlock', title: 'Padlock' },
      { value: 'cabinet', title: 'Cabinet lock' },
    ]);
    expect(mainTypeOptions(TREE, 'cabinet')).toEqual([{ value: 'padlock', title: 'Padlock' }]);
  });
});

describe('deviceTypeMatches', () => {
  it('finds the text in the name or the code, ignoring case and spaces around it', () => {
    expect(deviceTypeMatches(type('a', 'Cabinet lock', 'CAB'), ' cabinet ')).toBe(true);
    expect(deviceTypeMatches(type('a', 'Cabinet lock', 'CAB-01'), 'cab-0')).toBe(true);
    expect(deviceTypeMatches(type('a', 'Cabinet lock', 'CAB'), 'padlock')).toBe(false);
    expect(deviceTypeMatches(type('a', 'Cabinet lock', 'CAB'), ' ')).toBe(true);
  });
});

describe('device categories', () => {
  const t = ((key: string) => `[${key}]`) as unknown as TFunction;

  it('reads each category from the deviceType namespace, in the order of the contracts', () => {
    expect(deviceCategoryOptions(t)).toEqual([
      { value: 'Elec', label: '[deviceType:category.Elec]' },
      { value: 'LC', label: '[deviceType:category.LC]' },
      { value: 'IoT', label: '[deviceType:category.IoT]' },
    ]);
    expect(deviceCategoryLabel(t, null)).toBe('');
  });
});
