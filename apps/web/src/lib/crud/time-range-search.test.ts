import { describe, expect, it } from 'vitest';
import { consoleClock, consoleNow } from '../console-time.ts';
import { searchQuery, searchRangeProblem } from './page-query.ts';
import { EXPORTABLE_RANGE_PRESETS, TIME_RANGE_FIELD, timeRangeSearchField } from './time-range-search.ts';

describe('timeRangeSearchField', () => {
  const field = timeRangeSearchField('Time');

  it('is the range field that exports name, sent as startTime / endTime', () => {
    expect(field).toMatchObject({ kind: 'dateTimeRange', name: TIME_RANGE_FIELD, label: 'Time' });
    const start = consoleClock('2025-03-01T08:00:00Z');
    const end = consoleClock('2025-03-02T08:00:00Z');
    expect(searchQuery([field], { [TIME_RANGE_FIELD]: [start, end] })).toEqual({
      startTime: '2025-03-01T08:00:00.000Z',
      endTime: '2025-03-02T08:00:00.999Z',
    });
    expect(searchQuery([field], { [TIME_RANGE_FIELD]: undefined })).toEqual({});
  });

  it('offers only quick ranges that fit the one-year export limit, the year included', () => {
    expect(EXPORTABLE_RANGE_PRESETS).toEqual(['week', 'month', 'threeMonths', 'year']);
    expect(field.kind === 'dateTimeRange' && field.presets).toBe(EXPORTABLE_RANGE_PRESETS);
    // The longest preset ("year") is 365 days back from now: still exportable.
    const now = consoleNow();
    expect(searchRangeProblem([now.subtract(365, 'day'), now], { forExport: true })).toBeNull();
  });
});
