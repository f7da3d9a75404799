import { describe, expect, it } from 'vitest';
import { keepsTwoLevels } from './device-type-levels.ts';

describe('keepsTwoLevels', () => {
  it('accepts any main type, with or without sub types', () => {
    expect(keepsTwoLevels({ parentId: null, parentOfParent: undefined, hasSubTypes: false })).toBe(true);
    expect(keepsTwoLevels({ id: 'a', parentId: '', parentOfParent: undefined, hasSubTypes: true })).toBe(
      true,
    );
    expect(
      keepsTwoLevels({ id: 'a', parentId: undefined, parentOfParent: undefined, hasSubTypes: true }),
    ).toBe(true);
  });

  it('accepts a sub type under an existing main type', () => {
    expect(keepsTwoLevels({ parentId: 'main', parentOfParent: null, hasSubTypes: false })).toBe(true);
    expect(keepsTwoLevels({ id: 'a', parentId: 'main', parentOfParent: null, hasSubTypes: false })).toBe(
      true,
    );
  });

  it('refuses a parent that is missing or itself a sub type (a third level)', () => {
    expect(keepsTwoLevels({ parentId: 'gone', parentOfParent: undefined, hasSubTypes: false })).toBe(false);
    expect(keepsTwoLevels({ parentId: 'sub', parentOfParent: 'main', hasSubTypes: false })).toBe(false);
  });

  it('refuses a type under itself', () => {
    expect(keepsTwoLevels({ id: 'a', parentId: 'a', parentOfParent: null, hasSubTypes: false })).toBe(false);
  });

  it('keeps a main type with sub types at the top', () => {
    expect(keepsTwoLevels({ id: 'a', parentId: 'main', parentOfParent: null, hasSubTypes: true })).toBe(
      false,
    );
  });
});
