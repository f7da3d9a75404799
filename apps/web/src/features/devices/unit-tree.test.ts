import type { UnitNode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { unitMatches } from './unit-tree.ts';

const unit = (name: string, menuName: string | null = null): UnitNode => ({
  id: name,
  name,
  menuName,
  parentId: null,
  sortIndex: 0,
  stationId: 'UIOT-001',
  typeId: null,
  desc: null,
  children: [],
});

describe('unitMatches', () => {
  it('finds the text in the name or the menu name, ignoring case and spaces around it', () => {
    expect(unitMatches(unit('Tsuen Wan Depot'), ' wan ')).toBe(true);
    expect(unitMatches(unit('Depot', 'Kowloon Bay'), 'KOWLOON')).toBe(true);
    expect(unitMatches(unit('Depot'), 'kowloon')).toBe(false);
    expect(unitMatches(unit('Depot'), '  ')).toBe(true);
  });
});
