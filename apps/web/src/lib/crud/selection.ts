import type { RowKey } from './types.ts';

/** What an action needs selected: exactly one row, or at least one. */
export type SelectionNeed = 'one' | 'some';

/** The texts of spec §8 (namespace `crud`, `selection.*`). */
export type SelectionProblem = 'selectRowFirst' | 'selectOnlyOne' | 'tickAtLeastOne';

/** Why an action cannot run with `count` selected rows, or null when it can. */
export function selectionProblem(need: SelectionNeed | undefined, count: number): SelectionProblem | null {
  if (!need) return null;
  if (need === 'one') {
    if (count === 0) return 'selectRowFirst';
    return count > 1 ? 'selectOnlyOne' : null;
  }
  return count === 0 ? 'tickAtLeastOne' : null;
}

/** After a reload, the selection keeps only rows that are still shown. */
export function keepShownKeys(selected: readonly RowKey[], shown: readonly RowKey[]): RowKey[] {
  const present = new Set(shown);
  return selected.filter((key) => present.has(key));
}
