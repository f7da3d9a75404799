import type { QueryValue } from '../request/index.ts';
import type { TreeOption } from './types.ts';

/** Helpers for tree tables (e.g. departments): rows with a children field. */

type Node = object;

function childrenOf(row: Node, childrenKey: string): Node[] | undefined {
  const children = (row as Record<string, unknown>)[childrenKey];
  return Array.isArray(children) ? (children as Node[]) : undefined;
}

/** Leaves lose their empty children list, so the table shows no expand button for them. */
export function withoutEmptyChildren<Row extends Node>(
  rows: readonly Row[],
  childrenKey = 'children',
): Row[] {
  return rows.map((row) => {
    const children = childrenOf(row, childrenKey);
    if (!children) return row;
    if (children.length === 0) {
      const { [childrenKey]: _dropped, ...rest } = row as Record<string, unknown>;
      return rest as Row;
    }
    return { ...row, [childrenKey]: withoutEmptyChildren(children as Row[], childrenKey) };
  });
}

/** Every row of the tree, parents before their children (the order of a CSV export). */
export function flattenTree<Row extends Node>(rows: readonly Row[], childrenKey = 'children'): Row[] {
  return rows.flatMap((row) => [
    row,
    ...flattenTree((childrenOf(row, childrenKey) ?? []) as Row[], childrenKey),
  ]);
}

/** Rows that match, with the ancestors that lead to them (a search in a tree keeps the path). */
export function filterTree<Row extends Node>(
  rows: readonly Row[],
  matches: (row: Row) => boolean,
  childrenKey = 'children',
): Row[] {
  return rows.flatMap((row) => {
    const children = filterTree((childrenOf(row, childrenKey) ?? []) as Row[], matches, childrenKey);
    if (children.length > 0) return [{ ...row, [childrenKey]: children }];
    return matches(row) ? [{ ...row, [childrenKey]: [] }] : [];
  });
}

/** How a tree table's search finds rows. */
export interface TreeSearch<Row> {
  /** The text search field. */
  text: string;
  /** Whether a row matches the (non-blank) text of that field, e.g. its name or code contains it. */
  matches: (row: Row, text: string) => boolean;
  /** Select search fields a row matches by its field of the same name (e.g. a category). */
  equal?: readonly (keyof Row & string)[];
}

/**
 * The rows of a tree that match every search field given in `query` (blank fields ask nothing), with the
 * path to them; the whole tree when nothing is asked.
 */
export function searchTree<Row extends Node>(
  tree: Row[],
  query: Readonly<Record<string, QueryValue>>,
  { text, matches, equal = [] }: TreeSearch<Row>,
): Row[] {
  const asked = query[text];
  const needle = typeof asked === 'string' ? asked.trim() : '';
  const chosen = equal.filter((field) => query[field] !== undefined && query[field] !== '');
  if (!needle && chosen.length === 0) return tree;
  return filterTree(
    tree,
    (row) =>
      (!needle || matches(row, needle)) &&
      chosen.every((field) => (row as Record<string, unknown>)[field] === query[field]),
  );
}

/** Keys of the rows that have children: expanding them all opens the whole tree. */
export function parentKeys<Row extends Node, K>(
  rows: readonly Row[],
  keyOf: (row: Row) => K,
  childrenKey = 'children',
): K[] {
  return rows.flatMap((row) => {
    const children = (childrenOf(row, childrenKey) ?? []) as Row[];
    return children.length > 0 ? [keyOf(row), ...parentKeys(children, keyOf, childrenKey)] : [];
  });
}

/**
 * A tree as options of a tree select. `exclude` leaves out a node and everything below it (a node cannot
 * move under itself or one of its own, spec §5).
 */
export function treeOptions<Row extends { id: string; children: readonly Row[] }>(
  rows: readonly Row[],
  titleOf: (row: Row) => string,
  exclude?: string,
): TreeOption[] {
  return rows.flatMap((row): TreeOption[] => {
    if (row.id === exclude) return [];
    const children = treeOptions(row.children, titleOf, exclude);
    return [{ value: row.id, title: titleOf(row), ...(children.length > 0 ? { children } : {}) }];
  });
}
