import { describe, expect, it } from 'vitest';
import { PublishAdmission } from './publish-admission.ts';

/** A delivery queue whose length the test sets, and a scheduler the test runs by hand. */
function setup(high = 4, low = 2) {
  const queue = { length: 0 };
  const checks: Array<() => void> = [];
  const admission = new PublishAdmission(queue, { high, low, schedule: (check) => checks.push(check) });
  const entered: number[] = [];
  const runChecks = () => {
    const due = checks.splice(0);
    for (const check of due) check();
  };
  return { queue, admission, entered, checks, runChecks };
}

describe('PublishAdmission', () => {
  it('lets a publish in at once while the delivery queue is below the high mark', () => {
    const { queue, admission, entered, checks } = setup();
    queue.length = 3;
    admission.admit(() => entered.push(1));
    expect(entered).toEqual([1]);
    expect(admission.waiting).toBe(0);
    expect(checks).toHaveLength(0);
  });

  it('holds a publish while the queue is at the high mark and lets it in once below the low mark', () => {
    const { queue, admission, entered, runChecks } = setup();
    queue.length = 4;
    admission.admit(() => entered.push(1));
    expect(entered).toEqual([]);
    expect(admission.waiting).toBe(1);
    queue.length = 2; // not below low yet
    runChecks();
    expect(entered).toEqual([]);
    queue.length = 1;
    runChecks();
    expect(entered).toEqual([1]);
    expect(admission.waiting).toBe(0);
    expect(admission.heldTotal).toBe(1);
  });

  it('keeps the order: a new publish waits behind held ones even when the queue has room', () => {
    const { queue, admission, entered, runChecks } = setup();
    queue.length = 10;
    admission.admit(() => entered.push(1));
    queue.length = 0;
    admission.admit(() => entered.push(2));
    expect(entered).toEqual([]);
    runChecks();
    expect(entered).toEqual([1, 2]);
  });

  it('lets in no more per check than the room below the low mark, however slowly the queue grows', () => {
    const { queue, admission, entered, runChecks } = setup(4, 3);
    queue.length = 4;
    for (let i = 1; i <= 7; i++) admission.admit(() => entered.push(i));
    queue.length = 1; // room for 2; the released ones do not show in the queue yet
    runChecks();
    expect(entered).toEqual([1, 2]);
    runChecks(); // still length 1: two more
    expect(entered).toEqual([1, 2, 3, 4]);
    queue.length = 3;
    runChecks();
    expect(entered).toEqual([1, 2, 3, 4]);
    queue.length = 0;
    runChecks();
    expect(entered).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(admission.waiting).toBe(0);
  });

  it('schedules one check at a time while publishes are held', () => {
    const { queue, admission, checks } = setup();
    queue.length = 9;
    for (let i = 0; i < 5; i++) admission.admit(() => {});
    expect(checks).toHaveLength(1);
  });

  it('stops checking once nothing is held', () => {
    const { queue, admission, checks, runChecks } = setup();
    queue.length = 9;
    admission.admit(() => {});
    queue.length = 0;
    runChecks();
    expect(checks).toHaveLength(0);
  });

  it('keeps order across its internal compaction of a long wait list', () => {
    const { queue, admission, entered, runChecks } = setup(1000, 1000);
    queue.length = 1000;
    const total = 20_000;
    for (let i = 0; i < total; i++) admission.admit(() => entered.push(i));
    queue.length = 0;
    while (admission.waiting > 0) runChecks();
    expect(entered).toHaveLength(total);
    expect(entered.every((value, index) => value === index)).toBe(true);
  });

  it('releases everything held when the broker closes', () => {
    const { queue, admission, entered } = setup();
    queue.length = 100;
    admission.admit(() => entered.push(1));
    admission.admit(() => entered.push(2));
    admission.releaseAll();
    expect(entered).toEqual([1, 2]);
    expect(admission.waiting).toBe(0);
  });

  it('refuses marks that cannot work', () => {
    const queue = { length: 0 };
    expect(() => new PublishAdmission(queue, { high: 1, low: 2, schedule: () => {} })).toThrow(RangeError);
    expect(() => new PublishAdmission(queue, { high: 1, low: -1, schedule: () => {} })).toThrow(RangeError);
  });
});
