import { type KeyForm, keyForm } from '@uiot/contracts';
import {
  FirstRows,
  fieldValue,
  nameKey,
  type ParsedRows,
  type PeopleRefs,
  type ResolvedRows,
  type RowIssue,
  resolvePeople,
  type SheetRow,
  schemaIssues,
  textOf,
  uniqueIssue,
} from './import-rows.ts';
import { KEY_COLUMNS } from './import-sheets.ts';

/** A key row read against the key form, with the names of its holder and department. */
export interface ParsedKey {
  row: number;
  form: KeyForm | undefined;
  staffName: string;
  deptName: string;
  /** The code lower-cased (key codes are unique ignoring case), when its format is right. */
  code: string | undefined;
}

const columnKeys = new Set(KEY_COLUMNS.map((c) => c.key));
const keyColumnOf = (field: string) => (columnKeys.has(field) ? field : null);

export function parseKeyRows(rows: readonly SheetRow[]): ParsedRows<ParsedKey> {
  const parsed: ParsedKey[] = [];
  const issues: RowIssue[] = [];
  for (const row of rows) {
    const input = {
      name: textOf(row, 'name'),
      code: textOf(row, 'code'),
      desc: textOf(row, 'desc'),
      staffId: null,
      deptId: null,
    };
    const result = keyForm.safeParse(input);
    if (!result.success) issues.push(...schemaIssues(row.row, result.error, keyColumnOf));
    const code = fieldValue(keyForm.shape.code, input.code);
    parsed.push({
      row: row.row,
      form: result.success ? result.data : undefined,
      staffName: textOf(row, 'staffName'),
      deptName: textOf(row, 'deptName'),
      code: code === undefined ? undefined : nameKey(code),
    });
  }
  return { parsed, issues };
}

export interface KeyRefs extends PeopleRefs {
  /** Codes of the keys already in the ledger, lower-cased. */
  takenCodes: ReadonlySet<string>;
}

export interface NewKey {
  form: KeyForm;
  staffId: string | null;
  deptId: string | null;
}

export function resolveKeyRows(parsed: readonly ParsedKey[], refs: KeyRefs): ResolvedRows<NewKey> {
  const issues: RowIssue[] = [];
  const accepted: NewKey[] = [];
  const firstRows = new FirstRows();
  for (const p of parsed) {
    const { deptId, staffId, issues: rowIssues } = resolvePeople(refs, p.row, p);
    const codeIssue = uniqueIssue(p.row, 'code', p.code, refs.takenCodes, firstRows);
    if (codeIssue) rowIssues.push(codeIssue);
    issues.push(...rowIssues);
    if (rowIssues.length === 0 && p.form) accepted.push({ form: p.form, staffId, deptId });
  }
  return { issues, accepted };
}
