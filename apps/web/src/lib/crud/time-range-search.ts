import type { RangePreset, SearchField } from './types.ts';

/** The search field holding the time range of record pages; their `exports.range` names it. */
export const TIME_RANGE_FIELD = 'range';

/**
 * Quick ranges of a search whose "export all" is bound to at most a year (spec §5): each one of them can
 * be exported as it is (spec §9 offers longer ones elsewhere).
 */
export const EXPORTABLE_RANGE_PRESETS: readonly RangePreset[] = ['week', 'month', 'threeMonths', 'year'];

/**
 * The time range search of record pages (operation log, login log, telemetry records), sent as
 * `startTime` / `endTime`. Pair it with `exports={{ ..., range: TIME_RANGE_FIELD }}` so that "export all"
 * needs a range of at most a year, as the server does.
 */
export function timeRangeSearchField(label: string): SearchField {
  return {
    kind: 'dateTimeRange',
    name: TIME_RANGE_FIELD,
    label,
    from: 'startTime',
    to: 'endTime',
    presets: EXPORTABLE_RANGE_PRESETS,
  };
}
