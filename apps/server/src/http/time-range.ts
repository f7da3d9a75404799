import { type FieldIssue, type Lang, timeRangeProblem, translateValidation } from '@uiot/contracts';
import { AppError } from './app-error.ts';

/** The bounds of a searched time range (either may be open). */
export interface TimeRangeSearch {
  startTime?: string | undefined;
  endTime?: string | undefined;
}

function fieldError(path: string, key: string, lang: Lang): AppError {
  const issue: FieldIssue = { path, message: translateValidation(key, lang) };
  return AppError.invalid([issue]);
}

/**
 * The time range of a search (spec §5): end later than start; for exports required and at most a year.
 * A single bound is allowed when the range is optional.
 */
export function timeRange(
  search: TimeRangeSearch,
  options: { required: boolean; maxOneYear: boolean },
  lang: Lang,
): { start: Date | null; end: Date | null } {
  const startTime = search.startTime || undefined;
  const endTime = search.endTime || undefined;
  const problem = timeRangeProblem(startTime, endTime, options);
  if (problem) throw fieldError(problem.path, problem.message, lang);
  const start = startTime === undefined ? null : new Date(Date.parse(startTime));
  const end = endTime === undefined ? null : new Date(Date.parse(endTime));
  if (start && Number.isNaN(start.getTime())) throw fieldError('startTime', 'v.invalid', lang);
  if (end && Number.isNaN(end.getTime())) throw fieldError('endTime', 'v.invalid', lang);
  return { start, end };
}
