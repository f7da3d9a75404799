import { CONSOLE_UTC_OFFSET_HOURS, CONSOLE_UTC_OFFSET_MS } from '@uiot/contracts';

/**
 * The values of spreadsheet cells as the import reads them. Excel gives numbers, booleans and dates as well
 * as text; rich text, formulas and hyperlinks are reduced to what the cell shows.
 */
export type CellValue = string | number | boolean | Date | null;

/** Times in the files are the console's wall time (spec §9: UTC shifted by 8 hours). */
export const SHEET_UTC_OFFSET_HOURS = CONSOLE_UTC_OFFSET_HOURS;
const OFFSET_MS = CONSOLE_UTC_OFFSET_MS;

function textOfRich(value: unknown): string | null {
  if (value && typeof value === 'object' && 'richText' in value && Array.isArray(value.richText)) {
    return value.richText.map((part: { text?: unknown }) => String(part.text ?? '')).join('');
  }
  return null;
}

/** The value of an exceljs cell: what the cell shows, as one of the plain kinds. */
export function cellValue(raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : raw;
  if (typeof raw !== 'object') return String(raw);
  const rich = textOfRich(raw);
  if (rich !== null) return rich;
  if ('result' in raw) return cellValue(raw.result);
  if ('formula' in raw || 'sharedFormula' in raw) return null;
  if ('text' in raw) return textOfRich(raw.text) ?? cellValue(raw.text);
  if ('error' in raw) return String(raw.error);
  return null;
}

/** A number as decimal digits, never in exponent form (a 15-digit IMEI typed as a number stays digits). */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  return text.includes('e')
    ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
    : text;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A date cell's wall time as `yyyy-MM-dd HH:mm:ss` (exceljs reads the wall time as if it were UTC). */
function wallTime(date: Date): string {
  const d = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return `${d} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** The text of a cell, trimmed; empty for an empty cell. */
export function cellText(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return wallTime(value);
  return value.trim();
}

export function isBlank(value: CellValue): boolean {
  return cellText(value) === '';
}

/** A number cell as it is, anything else as text: for fields whose schema reads both. */
export function numberOrText(value: CellValue): number | string {
  return typeof value === 'number' ? value : cellText(value);
}

const YES = new Set(['yes', 'y', 'true', '1', '是']);
const NO = new Set(['no', 'n', 'false', '0', '否']);

/** Yes / no in any of the console's languages: null when empty, undefined when it is neither. */
export function yesNo(value: CellValue): boolean | null | undefined {
  if (typeof value === 'boolean') return value;
  const text = cellText(value).toLowerCase();
  if (text === '') return null;
  if (YES.has(text)) return true;
  if (NO.has(text)) return false;
  return undefined;
}

const WALL_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A time cell as an ISO 8601 instant. A date cell or a text without a zone (`2026-03-01 08:00`) is the
 * console's wall time (UTC+8); a text with a zone is taken as written. Anything else comes back as it
 * is, for the form's rule to refuse; an empty cell is null.
 */
export function importTime(value: CellValue): string | null {
  if (value instanceof Date) return new Date(value.getTime() - OFFSET_MS).toISOString();
  const text = cellText(value);
  if (text === '') return null;
  const match = WALL_TIME.exec(text);
  if (match) {
    const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const utc = Date.UTC(year, month - 1, day, hour, minute, second);
    const back = new Date(utc);
    const real =
      back.getUTCFullYear() === year &&
      back.getUTCMonth() === month - 1 &&
      back.getUTCDate() === day &&
      hour < 24 &&
      minute < 60 &&
      second < 60;
    return real ? new Date(utc - OFFSET_MS).toISOString() : text;
  }
  return /[zZ]$|[+-]\d{2}:?\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
    ? new Date(text).toISOString()
    : text;
}

/** An instant written as the console's wall time (UTC+8), `yyyy-MM-dd HH:mm:ss`. */
export function sheetTime(value: Date | null): string {
  return value ? wallTime(new Date(value.getTime() + OFFSET_MS)) : '';
}

/** The value of a closed list, matched ignoring case; undefined when it is none of them. */
export function listValue<T extends string>(values: readonly T[], text: string): T | undefined {
  const wanted = text.toLowerCase();
  return values.find((v) => v.toLowerCase() === wanted);
}
