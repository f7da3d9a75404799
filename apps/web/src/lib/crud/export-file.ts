import { safeFileName } from '../file/save-file.ts';

/** File extensions of the types an export may answer. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel': 'xls',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** The console's own exports are CSV: a file whose type is not given is taken for one. */
const DEFAULT_EXTENSION = 'csv';
/** A file of a type without a known extension. */
const UNKNOWN_EXTENSION = 'bin';

/** The extension of a content type (`text/csv; charset=utf-8` → `csv`), or null when unknown. */
export function extensionOfType(contentType: string | null | undefined): string | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return EXTENSIONS[type] ?? null;
}

function hasExtension(name: string): boolean {
  return /\.[A-Za-z0-9]{1,8}$/.test(name);
}

/**
 * The name a downloaded export is saved under: the server's name (given the extension of its type when it
 * has none), else `<title>_<stamp>.<extension of the type>`; CSV when no type is given.
 */
export function exportFileName({
  title,
  stamp,
  contentType,
  serverName,
}: {
  title: string;
  /** e.g. `20260102030405`. */
  stamp: string;
  contentType?: string | null | undefined;
  serverName?: string | null | undefined;
}): string {
  const type = (contentType ?? '').trim();
  const extension = extensionOfType(type) ?? (type ? UNKNOWN_EXTENSION : DEFAULT_EXTENSION);
  const given = serverName?.trim();
  if (given) {
    const name = safeFileName(given);
    return hasExtension(name) ? name : `${name}.${extension}`;
  }
  return `${safeFileName(title)}_${stamp}.${extension}`;
}
