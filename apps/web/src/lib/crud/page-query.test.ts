import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { consoleClock } from '../console-time.ts';
import {
  buildPageQuery,
  DEFAULT_PAGE_SIZE,
  exportPages,
  lastPage,
  PAGE_SIZES,
  PageShapeError,
  readPage,
  searchQuery,
  searchRangeProblem,
  sortFromTable,
  validPageSize,
} from './page-query.ts';
import type { SearchField } from './types.ts';

const fields: SearchField[] = [
  { kind: 'text', name: 'name', label: 'Name' },
  { kind: 'select', name: 'group', label: 'Group', options: [{ value: 'feature', label: 'Feature' }] },
  { kind: 'select', name: 'types', label: 'Types', options: [], multiple: true },
  { kind: 'dateTimeRange', name: 'range', label: 'Time', from: 'startTime', to: 'endTime' },
  { kind: 'treeSelect', name: 'deptId', label: 'Department', treeData: [] },
];

describe('table query (spec §7)', () => {
  it('sends trimmed texts and chosen values, leaves out blank ones', () => {
    expect(searchQuery(fields, { name: '  Strong ', group: 'feature', types: [], deptId: null })).toEqual({
      name: 'Strong',
      group: 'feature',
    });
    expect(searchQuery(fields, { name: '   ', group: '', range: undefined })).toEqual({});
    expect(searchQuery(fields, { types: ['a', 'b'], deptId: 'd1' })).toEqual({
      types: ['a', 'b'],
      deptId: 'd1',
    });
  });

  it('sends a yes / no choice as true or false, nothing when blank', () => {
    const flags: SearchField[] = [{ kind: 'yesNo', name: 'hasPassword', label: 'Has a password' }];
    expect(searchQuery(flags, { hasPassword: true })).toEqual({ hasPassword: true });
    expect(searchQuery(flags, { hasPassword: false })).toEqual({ hasPassword: false });
    expect(searchQuery(flags, { hasPassword: undefined })).toEqual({});
  });

  it("sends a date-time range as two ISO times, each end on its own, picked on the station's clock", () => {
    // What the range picker holds: the station's wall clock (UTC+8), 2025-03-01 16:00 to 03-02 16:00.
    const start = consoleClock('2025-03-01T08:00:00Z');
    const end = consoleClock('2025-03-02T08:00:00Z');
    expect(searchQuery(fields, { range: [start, end] })).toEqual({
      startTime: '2025-03-01T08:00:00.000Z',
      endTime: '2025-03-02T08:00:00.999Z',
    });
    // A picker's value in the browser's zone reads the same: its face is the station's wall clock.
    const faced = dayjs(new Date(2025, 2, 1, 16, 0, 0));
    expect(searchQuery(fields, { range: [faced, null] })).toEqual({ startTime: '2025-03-01T08:00:00.000Z' });
    // A Date is an instant.
    expect(searchQuery(fields, { range: [null, new Date('2025-03-02T08:00:00Z')] })).toEqual({
      endTime: '2025-03-02T08:00:00.999Z',
    });
    expect(searchQuery(fields, { range: null })).toEqual({});
    expect(searchQuery(fields, { range: [dayjs('nonsense'), new Date(Number.NaN)] })).toEqual({});
  });

  it('sends the end of a range as the last millisecond of its second, so that its second is in the range', () => {
    // The server keeps milliseconds and compares `<= end`: a record at 12:00:00.500 is in a range ending 12:00:00.
    const end = (value: unknown) => searchQuery(fields, { range: [null, value] }).endTime;
    expect(end(consoleClock('2026-11-27T04:00:00Z'))).toBe('2026-11-27T04:00:00.999Z');
    expect(end(consoleClock('2026-11-27T04:00:00.123Z'))).toBe('2026-11-27T04:00:00.999Z');
    expect(end('2026-11-27T04:00:00Z')).toBe('2026-11-27T04:00:00.999Z');
    expect(end('not a time')).toBe('not a time');
    // The start stays as picked.
    expect(searchQuery(fields, { range: [consoleClock('2026-11-27T04:00:00Z'), null] }).startTime).toBe(
      '2026-11-27T04:00:00.000Z',
    );
  });

  it("sends a page's own control's value as it is, nothing when blank", () => {
    const device: SearchField[] = [{ kind: 'custom', name: 'deviceId', label: 'Lock', input: () => null }];
    expect(searchQuery(device, { deviceId: 'd1' })).toEqual({ deviceId: 'd1' });
    expect(searchQuery(device, { deviceId: null })).toEqual({});
  });

  it("uses a field's own mapping when it has one", () => {
    const custom: SearchField = {
      kind: 'select',
      name: 'state',
      label: 'State',
      options: [],
      toQuery: (value) => (value === 'done' ? { operated: 1 } : {}),
    };
    expect(searchQuery([custom], { state: 'done' })).toEqual({ operated: 1 });
  });

  it('adds sort, ascending and paging; fixed parameters win over the form', () => {
    expect(
      buildPageQuery({
        fields,
        values: { name: 'a', deptId: 'form' },
        sort: { field: 'updatedAt', ascending: false },
        paging: { pageIndex: 3, pageSize: 50 },
        fixed: { deptId: 'tree', empty: '' },
      }),
    ).toEqual({ name: 'a', deptId: 'tree', sort: 'updatedAt', ascending: false, pageIndex: 3, pageSize: 50 });
    expect(buildPageQuery({ fields, values: {}, sort: null, paging: null })).toEqual({});
  });

  it("maps antd's sorter to the column's sort name, none without an order", () => {
    const names = { name: 'name', updated: 'updatedAt' };
    expect(sortFromTable({ columnKey: 'updated', order: 'ascend' }, names)).toEqual({
      field: 'updatedAt',
      ascending: true,
    });
    expect(sortFromTable({ columnKey: 'name', order: 'descend' }, names)).toEqual({
      field: 'name',
      ascending: false,
    });
    expect(sortFromTable({ columnKey: 'name', order: undefined }, names)).toBeNull();
    expect(sortFromTable({ columnKey: 'value', order: 'ascend' }, names)).toBeNull();
    expect(sortFromTable([{}, { columnKey: 'name', order: 'ascend' }], names)).toEqual({
      field: 'name',
      ascending: true,
    });
  });
});

describe('paging (spec §9)', () => {
  it('offers 10 to 100 in steps of 10, 20 by default', () => {
    expect(PAGE_SIZES).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(validPageSize(30)).toBe(30);
    expect(validPageSize(25)).toBe(20);
    expect(validPageSize('30')).toBe(20);
  });

  it('knows the last page that has rows', () => {
    expect(lastPage(0, 20)).toBe(1);
    expect(lastPage(20, 20)).toBe(1);
    expect(lastPage(21, 20)).toBe(2);
  });

  it('exports all as page 1 with pageSize = total, in pages of the largest size beyond it', () => {
    expect(exportPages(0, 100)).toEqual([]);
    expect(exportPages(57, 100)).toEqual([{ pageIndex: 1, pageSize: 57 }]);
    expect(exportPages(250, 100)).toEqual([
      { pageIndex: 1, pageSize: 100 },
      { pageIndex: 2, pageSize: 100 },
      { pageIndex: 3, pageSize: 100 },
    ]);
  });
});

describe('paged answers (spec §3, §8)', () => {
  it('accepts rows and total', () => {
    expect(readPage({ rows: [{ id: 1 }], total: 1 })).toEqual({ rows: [{ id: 1 }], total: 1 });
  });

  it("refuses anything else: 'paged mode must return rows and total'", () => {
    for (const answer of [
      null,
      [],
      { rows: [] },
      { total: 3 },
      { rows: {}, total: 1 },
      { rows: [], total: '1' },
    ]) {
      expect(() => readPage(answer)).toThrow(PageShapeError);
    }
    expect(() => readPage(null)).toThrow('paged mode must return rows and total');
  });
});

describe('date-time range search (spec §5)', () => {
  const at = (iso: string) => consoleClock(iso);

  it('wants the end later than the start, not equal', () => {
    expect(searchRangeProblem([at('2025-03-01T08:00:00Z'), at('2025-03-02T08:00:00Z')])).toBeNull();
    expect(searchRangeProblem([at('2025-03-01T08:00:00Z'), at('2025-03-01T08:00:00Z')])).toBe(
      'v.endAfterStart',
    );
    expect(searchRangeProblem([at('2025-03-02T08:00:00Z'), at('2025-03-01T08:00:00Z')])).toBe(
      'v.endAfterStart',
    );
  });

  it('lets a search go without a range, but not an export', () => {
    expect(searchRangeProblem(undefined)).toBeNull();
    expect(searchRangeProblem(null)).toBeNull();
    expect(searchRangeProblem(undefined, { forExport: true })).toBe('v.timeRangeRequired');
  });

  it('exports at most a year, measured to the end as sent (its whole second), as the server measures it', () => {
    const start = at('2025-01-01T00:00:00Z');
    expect(searchRangeProblem([start, start.add(365, 'day')], { forExport: true })).toBeNull();
    expect(searchRangeProblem([start, start.add(400, 'day')], { forExport: true })).toBe('v.rangeWithinYear');
    expect(searchRangeProblem([start, start.add(400, 'day')])).toBeNull();
    // 366 days (the limit) to the second picked: its second runs past the limit.
    expect(
      searchRangeProblem([start, start.add(366, 'day').subtract(1, 'second')], { forExport: true }),
    ).toBeNull();
    expect(searchRangeProblem([start, start.add(366, 'day')], { forExport: true })).toBe('v.rangeWithinYear');
  });
});
