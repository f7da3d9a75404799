import type { OperationRecordRow } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { mergeOperationPage, recordMatchesQuery } from './operation-live.ts';

const row = (id: string, values: Partial<OperationRecordRow> = {}) =>
  ({
    id,
    deviceId: 'd1',
    taskId: null,
    action: 'open',
    result: 'sent',
    source: 'console',
    ...values,
  }) as OperationRecordRow;

describe('mergeOperationPage', () => {
  const page = { rows: [row('r1'), row('r2')], total: 2 };

  it('replaces a record that moved on, in place, without asking again', () => {
    const merged = mergeOperationPage(page, {}, [row('r2', { result: 'succeeded' })]);
    expect(merged.page?.rows.map((r) => r.result)).toEqual(['sent', 'succeeded']);
    expect(merged.refetch).toBe(false);
  });

  it('never lets a stale copy still at "sent" undo a final result', () => {
    const answered = {
      rows: [row('r1', { result: 'succeeded' }), row('r2', { result: 'failed' })],
      total: 2,
    };
    expect(mergeOperationPage(answered, {}, [row('r1'), row('r2')])).toEqual({ page: null, refetch: false });
    const moved = mergeOperationPage(page, {}, [row('r1', { result: 'failed' }), row('r1')]);
    expect(moved.page?.rows.map((r) => r.result)).toEqual(['failed', 'sent']);
  });

  it('asks again when a record leaves the searched result, or a new one may belong to the page', () => {
    expect(mergeOperationPage(page, { result: 'sent' }, [row('r1', { result: 'failed' })]).refetch).toBe(
      true,
    );
    expect(mergeOperationPage(page, {}, [row('r3')])).toEqual({ page: null, refetch: true });
  });

  it("leaves another device's page alone", () => {
    expect(mergeOperationPage(page, { deviceId: 'd1' }, [row('r3', { deviceId: 'd2' })])).toEqual({
      page: null,
      refetch: false,
    });
  });
});

describe('recordMatchesQuery', () => {
  it('reads blank filters as none, and compares the rest as text', () => {
    expect(recordMatchesQuery(row('r1'), { action: '', source: 'console', deviceId: 'd1' })).toBe(true);
    expect(recordMatchesQuery(row('r1'), { action: 'close' })).toBe(false);
  });
});
