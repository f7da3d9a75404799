import { type UnitForm, unitForm } from '@uiot/contracts';
import { isBlank, numberOrText } from './import-cells.ts';
import {
  cellOf,
  FirstRows,
  nameKey,
  type ParsedRows,
  type ResolvedRows,
  type RowIssue,
  type SheetRow,
  schemaIssues,
  textOf,
} from './import-rows.ts';
import { UNIT_COLUMNS } from './import-sheets.ts';
import { childPath, normalisePath } from './unit-paths.ts';

/** A unit row read against the unit form, with the path of its parent. */
export interface ParsedUnit {
  row: number;
  form: UnitForm | undefined;
  name: string;
  /** Normalised path of the parent; '' for the top level. */
  parentPath: string;
}

const columnKeys = new Set(UNIT_COLUMNS.map((c) => c.key));
const unitColumnOf = (field: string) =>
  field === 'parentId' ? 'parentPath' : columnKeys.has(field) ? field : null;

export function parseUnitRows(rows: readonly SheetRow[]): ParsedRows<ParsedUnit> {
  const parsed: ParsedUnit[] = [];
  const issues: RowIssue[] = [];
  for (const row of rows) {
    const sortIndex = cellOf(row, 'sortIndex');
    const result = unitForm.safeParse({
      name: textOf(row, 'name'),
      menuName: textOf(row, 'menuName'),
      sortIndex: isBlank(sortIndex) ? undefined : numberOrText(sortIndex),
      typeId: textOf(row, 'typeId'),
      desc: textOf(row, 'desc'),
      parentId: null,
    });
    if (!result.success) issues.push(...schemaIssues(row.row, result.error, unitColumnOf));
    parsed.push({
      row: row.row,
      form: result.success ? result.data : undefined,
      name: textOf(row, 'name'),
      parentPath: normalisePath(textOf(row, 'parentPath')),
    });
  }
  return { parsed, issues };
}

export interface UnitRefs {
  /** The units of the tree by normalised path. */
  paths: ReadonlyMap<string, { id: string }>;
  /** Names taken among siblings: `siblingKey(parentId, name)`. */
  siblingNames: ReadonlySet<string>;
}

/** A name under a parent (null: the top level), as compared among siblings: case ignored. */
export function siblingKey(parentId: string | null, name: string): string {
  return `${parentId ?? ''}\n${nameKey(name)}`;
}

export interface NewUnit {
  id: string;
  parentId: string | null;
  form: UnitForm;
}

/**
 * Rows in file order: a parent is a unit of the tree or of an earlier row; a name is free among the
 * siblings of the tree and of the file. Each new unit gets its id here so later rows can hang under it.
 */
export function resolveUnitRows(
  parsed: readonly ParsedUnit[],
  refs: UnitRefs,
  newId: () => string,
): ResolvedRows<NewUnit> {
  const issues: RowIssue[] = [];
  const accepted: NewUnit[] = [];
  const filePaths = new Map<string, string>();
  const firstRows = new FirstRows();
  for (const p of parsed) {
    const rowIssues: RowIssue[] = [];
    let parentId: string | null | undefined = null;
    if (p.parentPath !== '') {
      parentId = refs.paths.get(p.parentPath)?.id ?? filePaths.get(p.parentPath);
      if (parentId === undefined) {
        rowIssues.push({ row: p.row, column: 'parentPath', key: 'import.parentNotFound' });
      }
    }
    const id = newId();
    if (p.name !== '') {
      if (parentId !== undefined) {
        const key = siblingKey(parentId, p.name);
        if (refs.siblingNames.has(key)) {
          rowIssues.push({ row: p.row, column: 'name', key: 'import.unitNameTaken' });
        } else {
          const earlier = firstRows.earlier(key, p.row);
          if (earlier !== undefined) {
            rowIssues.push({
              row: p.row,
              column: 'name',
              key: 'import.duplicateInFile',
              params: { row: earlier },
            });
          }
        }
      }
      // Rows below this one may name it as their parent, even when this row has a problem of its own.
      const path = childPath(p.parentPath, nameKey(p.name));
      if (!filePaths.has(path)) filePaths.set(path, id);
    }
    issues.push(...rowIssues);
    if (rowIssues.length === 0 && p.form && parentId !== undefined) {
      accepted.push({ id, parentId, form: { ...p.form, parentId } });
    }
  }
  return { issues, accepted };
}
