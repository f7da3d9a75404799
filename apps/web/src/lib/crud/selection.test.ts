import { describe, expect, it } from 'vitest';
import { keepShownKeys, selectionProblem } from './selection.ts';

describe('actions on selected rows (spec §5, §8)', () => {
  it("asks to 'select a row first' for one-row actions", () => {
    expect(selectionProblem('one', 0)).toBe('selectRowFirst');
    expect(selectionProblem('one', 1)).toBeNull();
    expect(selectionProblem('one', 2)).toBe('selectOnlyOne');
  });

  it("asks to 'tick at least one record' for many-row actions", () => {
    expect(selectionProblem('some', 0)).toBe('tickAtLeastOne');
    expect(selectionProblem('some', 1)).toBeNull();
    expect(selectionProblem('some', 40)).toBeNull();
  });

  it('lets actions that need no selection run', () => {
    expect(selectionProblem(undefined, 0)).toBeNull();
  });

  it('keeps only the selected rows still shown after a reload', () => {
    expect(keepShownKeys(['a', 'b', 3], ['b', 3, 'c'])).toEqual(['b', 3]);
    expect(keepShownKeys([], ['a'])).toEqual([]);
  });
});
