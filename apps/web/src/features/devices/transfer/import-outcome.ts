import { IMPORT_MAX_BYTES, type ImportError, importError, ResultCode } from '@uiot/contracts';

/** Why a chosen file is not sent: not an .xlsx workbook, empty, or larger than the server takes. */
export type ImportFileProblem = 'type' | 'empty' | 'size';

export function importFileProblem(file: { name: string; size: number }): ImportFileProblem | null {
  if (!/\.xlsx$/i.test(file.name.trim())) return 'type';
  if (file.size <= 0) return 'empty';
  if (file.size > IMPORT_MAX_BYTES) return 'size';
  return null;
}

/**
 * The errors of a refused import (code 1140) from the failure's `data`: a list of `{ row, column, message }`,
 * or an object holding it under `errors`. Entries of another shape are left out; sorted by row.
 */
export function importErrorsOf(data: unknown): ImportError[] {
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { errors?: unknown }).errors)
      ? (data as { errors: unknown[] }).errors
      : [];
  return list
    .flatMap((entry) => {
      const parsed = importError.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    })
    .sort((a, b) => a.row - b.row);
}

/** What the dialog shows after an import call. */
export type ImportOutcome =
  | { kind: 'imported'; count: number }
  | { kind: 'invalid'; message: string; errors: ImportError[] }
  | { kind: 'unreadable'; message: string };

/**
 * The outcome of a failed import that the dialog shows itself: the file's errors (1140) or an unreadable
 * file (1141); null for other failures (shown as the generic "import failed: …").
 */
export function importFailureOutcome(failure: {
  code?: number | undefined;
  serverMessage?: string | undefined;
  data?: unknown;
}): ImportOutcome | null {
  const message = failure.serverMessage ?? '';
  if (failure.code === ResultCode.ImportInvalid) {
    return { kind: 'invalid', message, errors: importErrorsOf(failure.data) };
  }
  if (failure.code === ResultCode.ImportUnreadable) return { kind: 'unreadable', message };
  return null;
}
