import { describe, expect, it } from 'vitest';
import { childPath, normalisePath, unitPaths, unitsByPath } from './unit-paths.ts';

describe('unit paths', () => {
  it('compare trimmed, ignoring case and empty parts', () => {
    expect(normalisePath(' Line 1 / Station A/')).toBe('line 1/station a');
    expect(normalisePath('')).toBe('');
    expect(normalisePath(' / ')).toBe('');
    expect(childPath('', 'a')).toBe('a');
    expect(childPath('a', 'b')).toBe('a/b');
  });

  it('are the names from the top, even where the parents loop', () => {
    const paths = unitPaths([
      { id: 'c', parentId: 'b', name: 'Room' },
      { id: 'a', parentId: null, name: 'Line 1' },
      { id: 'b', parentId: 'a', name: 'Station A' },
      { id: 'x', parentId: 'y', name: 'X' },
      { id: 'y', parentId: 'x', name: 'Y' },
      { id: 'o', parentId: 'gone', name: 'Orphan' },
    ]);
    expect(paths.get('c')).toBe('Line 1/Station A/Room');
    expect(paths.get('a')).toBe('Line 1');
    expect(paths.get('o')).toBe('Orphan');
    expect(paths.get('x')).toMatch(/X$/);
  });

  it('find units by their path as compared', () => {
    const units = [
      { id: 'a', parentId: null, name: 'Line 1' },
      { id: 'b', parentId: 'a', name: 'Station A' },
    ];
    const byPath = unitsByPath(units);
    expect(byPath.get(normalisePath(' line 1 / STATION A '))).toBe(units[1]);
    expect([...byPath.keys()]).toEqual(['line 1', 'line 1/station a']);
  });
});
