import type { FieldIssue } from '@uiot/contracts';

export type FieldNamePath = (string | number)[];

/** `roleIds.0` → `['roleIds', 0]`: the server's issue path as an antd name path. */
export function issueNamePath(path: string): FieldNamePath {
  if (!path) return [];
  return path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export interface FieldErrors {
  /** For `form.setFields`: the errors of each field the form has, in the server's order. */
  fields: { name: FieldNamePath; errors: string[] }[];
  /** Issues about no field of the form (or the whole form): shown above the fields. */
  others: FieldIssue[];
}

/**
 * Spreads the field issues of an HTTP 400 answer (`data: [{ path, message }]`) onto the form: issues of
 * one field are grouped; those whose path is not a field of the form (`isField`) are kept apart.
 */
export function fieldErrorsOf(
  issues: readonly FieldIssue[],
  isField: (name: FieldNamePath) => boolean,
): FieldErrors {
  const byPath = new Map<string, { name: FieldNamePath; errors: string[] }>();
  const others: FieldIssue[] = [];
  for (const issue of issues) {
    const name = issueNamePath(issue.path);
    if (name.length === 0 || !isField(name)) {
      others.push(issue);
      continue;
    }
    const key = name.join('.');
    const field = byPath.get(key) ?? { name, errors: [] };
    if (!field.errors.includes(issue.message)) field.errors.push(issue.message);
    byPath.set(key, field);
  }
  return { fields: [...byPath.values()], others };
}

/** Whether `values` (antd's `getFieldsValue()`, which lists every registered field) holds `name`. */
export function hasNamePath(values: unknown, name: FieldNamePath): boolean {
  let current: unknown = values;
  for (const part of name) {
    if (typeof current !== 'object' || current === null || !(part in current)) return false;
    current = (current as Record<string | number, unknown>)[part];
  }
  return true;
}
