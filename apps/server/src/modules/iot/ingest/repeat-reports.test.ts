import { describe, expect, it } from 'vitest';
import { RepeatReports, valuesOf } from './repeat-reports.ts';
import type { RuntimeUpdate } from './runtime-merge.ts';

function update(deviceId: string, at: number, more: Partial<RuntimeUpdate> = {}): RuntimeUpdate {
  return {
    deviceId,
    lastCollectTime: at,
    lastMessageId: `${deviceId}-${at}`,
    lockState: 'closed',
    doorState: 'closed',
    battery: 80,
    ...more,
  };
}

const ids = (updates: readonly RuntimeUpdate[]) => updates.map((u) => u.deviceId);

/** Writes `updates` as one committed batch in which the database applied every write. */
function commit(repeats: RepeatReports, updates: RuntimeUpdate[]) {
  const plan = repeats.plan(updates);
  repeats.done(plan, new Set(ids(plan.write)));
  return plan;
}

describe('RepeatReports', () => {
  it('leaves out a report repeating the last applied write within the interval, and keeps its time', () => {
    const repeats = new RepeatReports(5_000);
    expect(ids(commit(repeats, [update('a', 1_000)]).write)).toEqual(['a']);
    const plan = commit(repeats, [update('a', 3_000)]);
    expect(ids(plan.repeats)).toEqual(['a']);
    expect(plan.write).toEqual([]);
    expect(repeats.takeTimes()).toMatchObject([{ deviceId: 'a', at: 3_000, messageId: 'a-3000' }]);
    expect(repeats.unwrittenTimes).toBe(0);
  });

  it('writes once the interval since the last write has passed, and compares with that write from then on', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    expect(ids(commit(repeats, [update('a', 5_999)]).repeats)).toEqual(['a']);
    expect(ids(commit(repeats, [update('a', 6_000)]).write)).toEqual(['a']);
    // The write at 6 000 carried a newer time than the repeat at 5 999: nothing of it is left to write.
    expect(repeats.unwrittenTimes).toBe(0);
    expect(ids(commit(repeats, [update('a', 10_999)]).repeats)).toEqual(['a']);
    expect(repeats.takeTimes()).toMatchObject([{ deviceId: 'a', at: 10_999, messageId: 'a-10999' }]);
  });

  it('writes every value that differs from the last write', () => {
    const changes: Array<Partial<RuntimeUpdate>> = [
      { lockState: 'open' },
      { doorState: 'open' },
      { battery: 79 },
      { rssi: -90 },
      { runState: 'damaged' },
      { props: { temperature: 21 } },
      { devEui: '0011223344556677' },
      { chirpstackApplicationId: 'app-1' },
      { lockState: undefined },
    ];
    for (const change of changes) {
      const repeats = new RepeatReports(5_000);
      commit(repeats, [update('a', 1_000)]);
      expect(ids(commit(repeats, [update('a', 2_000, change)]).write), JSON.stringify(change)).toEqual(['a']);
    }
  });

  it('writes every report carrying an event, and the report after it', () => {
    const events: Array<Partial<RuntimeUpdate>> = [
      { damageReports: [{ messageId: 'm', at: 2_000 }] },
      { unlocks: [{ messageId: 'm', at: 2_000, receivedAt: 2_000 }] },
      { pinReports: [{ messageId: 'm', at: 2_000, event: 'pinUsed', ref: 'r' }] },
    ];
    for (const event of events) {
      const repeats = new RepeatReports(5_000);
      commit(repeats, [update('a', 1_000)]);
      expect(valuesOf(update('a', 2_000, event))).toBeNull();
      expect(ids(commit(repeats, [update('a', 2_000, event)]).write)).toEqual(['a']);
      expect(ids(commit(repeats, [update('a', 3_000)]).write)).toEqual(['a']);
      expect(ids(commit(repeats, [update('a', 4_000)]).repeats)).toEqual(['a']);
    }
  });

  it('writes everything when the interval is 0, an older update too (the row itself refuses it)', () => {
    const repeats = new RepeatReports(0);
    commit(repeats, [update('a', 1_000)]);
    expect(ids(commit(repeats, [update('a', 1_001)]).write)).toEqual(['a']);
    expect(commit(repeats, [update('a', 500)])).toMatchObject({ repeats: [], late: [] });
    expect(repeats.unwrittenTimes).toBe(0);
  });

  it('compares with nothing while a write of the device is under way', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    const first = repeats.plan([update('a', 2_000, { lockState: 'open' })]);
    const second = repeats.plan([update('a', 3_000)]);
    expect(ids(second.write)).toEqual(['a']);
    // The first write is done but the second still under way: its values are not what the row will hold.
    repeats.done(first, new Set(['a']));
    expect(ids(repeats.plan([update('a', 3_500)]).write)).toEqual(['a']);
  });

  it('takes repeats while the writes under way set the same values (a write each interval, overlapping)', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    const refresh = repeats.plan([update('a', 6_000)]);
    expect(ids(refresh.write)).toEqual(['a']);
    // Past the interval again while the first refresh is still under way: written too.
    const again = repeats.plan([update('a', 6_500)]);
    expect(ids(again.write)).toEqual(['a']);
    repeats.done(refresh, new Set(['a']));
    // The row holds these values whatever becomes of the other write: a repeat.
    expect(ids(repeats.plan([update('a', 7_000)]).repeats)).toEqual(['a']);
    // Should that write fail, the row still holds them.
    repeats.done(again, null);
    expect(ids(repeats.plan([update('a', 7_500)]).repeats)).toEqual(['a']);
    // A write of other values under way stops repeats until it is done.
    const opening = repeats.plan([update('a', 8_000, { lockState: 'open' })]);
    expect(ids(repeats.plan([update('a', 8_500)]).write)).toEqual(['a']);
    repeats.done(opening, null);
  });

  it('keeps the newer write when an older one is done after it', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    const older = repeats.plan([update('a', 2_000, { lockState: 'open' })]);
    const newer = repeats.plan([update('a', 3_000, { lockState: 'open' })]);
    repeats.done(newer, new Set(['a']));
    repeats.done(older, new Set(['a']));
    expect(ids(repeats.plan([update('a', 3_500, { lockState: 'open' })]).repeats)).toEqual(['a']);
  });

  it('compares with the last write once every write under way is done', () => {
    const repeats = new RepeatReports(5_000);
    const first = repeats.plan([update('a', 1_000, { lockState: 'open' })]);
    const second = repeats.plan([update('a', 2_000)]);
    repeats.done(second, new Set(['a']));
    repeats.done(first, new Set());
    // The first was late (the database applied nothing of it): nothing is known of the row.
    expect(ids(commit(repeats, [update('a', 3_000)]).write)).toEqual(['a']);
    expect(ids(commit(repeats, [update('a', 4_000)]).repeats)).toEqual(['a']);
  });

  it('forgets a write the database did not apply, and one of a failed batch, and keeps no repeat of it', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000), update('b', 1_000)]);
    const late = repeats.plan([update('a', 2_000, { battery: 70 })]);
    repeats.done(late, new Set());
    expect(ids(commit(repeats, [update('a', 2_500, { battery: 70 })]).write)).toEqual(['a']);

    const failed = repeats.plan([update('a', 3_000, { battery: 60 }), update('b', 3_000)]);
    expect(ids(failed.repeats)).toEqual(['b']);
    repeats.done(failed, null);
    expect(repeats.unwrittenTimes).toBe(0);
    expect(ids(commit(repeats, [update('a', 3_500, { battery: 60 })]).write)).toEqual(['a']);
  });

  it('writes a forgotten device (marked offline) again', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000), update('b', 1_000)]);
    repeats.forget(['a']);
    const plan = commit(repeats, [update('a', 2_000), update('b', 2_000)]);
    expect(ids(plan.write)).toEqual(['a']);
    expect(ids(plan.repeats)).toEqual(['b']);
  });

  it('takes an update older than a committed repeat for late: it writes nothing', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 2_000)]);
    // Older than the last write: written, and the row's own check refuses it.
    expect(ids(commit(repeats, [update('a', 1_999)]).write)).toEqual(['a']);
    commit(repeats, [update('a', 2_000)]);
    expect(ids(commit(repeats, [update('a', 4_000)]).repeats)).toEqual(['a']);
    // The repeat left the row's time at 2 000: an older update must not write the states it carries.
    const older = repeats.plan([update('a', 3_000, { lockState: 'open' })]);
    expect(older).toMatchObject({ write: [], repeats: [] });
    expect(ids(older.late)).toEqual(['a']);
    repeats.done(older, new Set());
    // Of the same time as the repeat: not late.
    expect(ids(commit(repeats, [update('a', 4_000, { battery: 10 })]).write)).toEqual(['a']);
  });

  it('does not count a repeat of a failed batch against later updates', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    // A batch whose merged update held a redelivered message (a later receive time) is undone and written
    // again without it: its update of 3 000 never happened.
    const undone = repeats.plan([update('a', 3_000)]);
    expect(ids(undone.repeats)).toEqual(['a']);
    repeats.done(undone, null);
    expect(ids(commit(repeats, [update('a', 2_000, { lockState: 'open' })]).write)).toEqual(['a']);
  });

  it('says when an update is older than a repeat under way, which makes it late, until that plan is done', async () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000), update('b', 1_000)]);
    const under = repeats.plan([update('a', 3_000)]);
    expect(ids(under.repeats)).toEqual(['a']);
    expect(repeats.overtaken([update('a', 2_000)])).toBe(true);
    expect(repeats.overtaken([update('a', 3_000), update('b', 2_000)])).toBe(false);
    expect(ids(repeats.plan([update('a', 2_000, { lockState: 'open' })]).late)).toEqual(['a']);
    const settled = repeats.settled();
    repeats.done(under, null);
    await settled;
    // Undone: it decides nothing.
    expect(repeats.overtaken([update('a', 2_000)])).toBe(false);
    expect(ids(commit(repeats, [update('a', 2_000, { lockState: 'open' })]).write)).toEqual(['a']);
  });

  it('lets a batch take repeats once every batch taken before it has planned', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    const first = repeats.begin(['a']);
    const second = repeats.begin(['a']);
    const planned = repeats.plan([update('a', 2_000)], first);
    expect(ids(planned.repeats)).toEqual(['a']);
    // The first batch is still being written, but has planned: an update of its own written again later is
    // older than the second's, and late.
    const next = repeats.plan([update('a', 3_000)], second);
    expect(ids(next.repeats)).toEqual(['a']);
    repeats.done(next, new Set());
    expect(ids(repeats.plan([update('a', 2_000, { lockState: 'open' })], first).late)).toEqual(['a']);
  });

  it('keeps an opening whose batch fell back while a later batch held a repeat from a redelivery', () => {
    const repeats = new RepeatReports(60_000);
    commit(repeats, [update('a', 1_000)]);
    const b3 = repeats.begin(['a']);
    const b4 = repeats.begin(['a']);
    // An opening and a redelivery of the closed report, merged: a repeat; then B4, a redelivery again.
    const first = repeats.plan([update('a', 3_000)], b3);
    expect(ids(first.repeats)).toEqual(['a']);
    const other = repeats.plan([update('a', 4_000)], b4);
    expect(ids(other.repeats)).toEqual(['a']);
    // B3 is undone on the message key: it holds its device again and waits for B4's repeat under way.
    repeats.done(first, null);
    expect(repeats.overtaken([{ deviceId: 'a', lastCollectTime: 2_000 }])).toBe(true);
    repeats.done(other, null);
    expect(repeats.overtaken([{ deviceId: 'a', lastCollectTime: 2_000 }])).toBe(false);
    // B4, undone too, plans again behind B3: no repeat while B3 has not planned.
    expect(ids(repeats.plan([update('a', 4_000)], b4).write)).toEqual(['a']);
    const again = repeats.plan([update('a', 2_000, { lockState: 'open' })], b3);
    expect(ids(again.write)).toEqual(['a']);
  });

  it('takes no repeat, in any batch, of a device whose batch goes step by step and has not planned', () => {
    const repeats = new RepeatReports(60_000);
    commit(repeats, [update('a', 1_000), update('b', 1_000)]);
    const earlier = repeats.begin(['a', 'b']);
    const stepping = repeats.begin(['a']);
    repeats.stepIn(stepping);
    // The batch taken before is first for 'a', but may not take it for a repeat now.
    const plan = repeats.plan([update('a', 3_000), update('b', 3_000)], earlier);
    expect(ids(plan.write)).toEqual(['a']);
    expect(ids(plan.repeats)).toEqual(['b']);
    repeats.done(plan, new Set(['a']));
    // The stepping batch itself may; planned, it steps out.
    const own = repeats.plan([update('a', 3_500)], stepping);
    expect(ids(own.repeats)).toEqual(['a']);
    repeats.done(own, new Set());
    expect(ids(repeats.plan([update('a', 3_600)]).repeats)).toEqual(['a']);
    // A batch that steps out without planning (its transaction failed) lets repeats come again too.
    const failed = repeats.begin(['b']);
    repeats.stepIn(failed);
    expect(ids(repeats.plan([update('b', 3_700)]).write)).toEqual(['b']);
    repeats.stepOut(failed);
    repeats.end(failed);
  });

  it('takes no repeat while a batch taken before holds the device', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000), update('b', 1_000)]);
    const first = repeats.begin(['a', 'a']);
    const second = repeats.begin(['a', 'b']);
    // The first batch has not planned yet (it may be written step by step, or retried, after the second).
    const plan = repeats.plan([update('a', 3_000), update('b', 3_000)], second);
    expect(ids(plan.write)).toEqual(['a']);
    expect(ids(plan.repeats)).toEqual(['b']);
    repeats.done(plan, new Set(['a']));
    repeats.end(second);
    // The first batch itself is first for its devices.
    const own = repeats.plan([update('a', 3_500)], first);
    expect(ids(own.repeats)).toEqual(['a']);
    repeats.done(own, new Set());
    repeats.end(first);
    const third = repeats.begin(['a']);
    expect(ids(repeats.plan([update('a', 3_600)], third).repeats)).toEqual(['a']);
  });

  it('keeps the newest repeat time per device, in device order, and gives back failed ones unless newer came', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('b', 1_000), update('a', 1_000), update('c', 1_000)]);
    commit(repeats, [update('b', 2_000), update('a', 2_000), update('c', 2_000)]);
    commit(repeats, [update('b', 3_000)]);
    const taken = repeats.takeTimes();
    expect(taken.map((t) => [t.deviceId, t.at])).toEqual([
      ['a', 2_000],
      ['b', 3_000],
      ['c', 2_000],
    ]);
    commit(repeats, [update('a', 4_000)]);
    repeats.restoreTimes(taken);
    expect(repeats.takeTimes().map((t) => [t.deviceId, t.at])).toEqual([
      ['a', 4_000],
      ['b', 3_000],
      ['c', 2_000],
    ]);
  });

  it('plans no repeat while another writer may be present, and compares only with writes of its own era', () => {
    const repeats = new RepeatReports(5_000, false);
    expect(repeats.sole).toBe(false);
    commit(repeats, [update('a', 1_000)]);
    expect(ids(commit(repeats, [update('a', 2_000)]).write)).toEqual(['a']);
    repeats.becomeSole();
    // What was written before the era began may have been followed by another instance's write.
    expect(ids(commit(repeats, [update('a', 3_000)]).write)).toEqual(['a']);
    expect(ids(commit(repeats, [update('a', 4_000)]).repeats)).toEqual(['a']);
    repeats.stepDown();
    expect(ids(commit(repeats, [update('a', 4_500)]).write)).toEqual(['a']);
    repeats.becomeSole();
    expect(ids(commit(repeats, [update('a', 5_000)]).write)).toEqual(['a']);
    expect(ids(commit(repeats, [update('a', 5_500)]).repeats)).toEqual(['a']);
  });

  it('does not compare with a write planned before its era began, even one done in it', () => {
    const repeats = new RepeatReports(5_000, false);
    const before = repeats.plan([update('a', 1_000)]);
    repeats.becomeSole();
    repeats.done(before, new Set(['a']));
    expect(ids(commit(repeats, [update('a', 2_000)]).write)).toEqual(['a']);
    // Nor with one planned in an era that ended before it was done.
    const planned = repeats.plan([update('a', 3_000)]);
    repeats.stepDown();
    repeats.becomeSole();
    repeats.done(planned, new Set(['a']));
    expect(ids(commit(repeats, [update('a', 3_500)]).write)).toEqual(['a']);
    expect(ids(commit(repeats, [update('a', 4_000)]).repeats)).toEqual(['a']);
  });

  it('lets a repeat under way at a step down end and leave its time, and keeps older updates late', () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    const repeat = repeats.plan([update('a', 2_000)]);
    expect(ids(repeat.repeats)).toEqual(['a']);
    repeats.stepDown();
    expect(repeats.repeatsUnderWay).toBe(1);
    expect(ids(repeats.plan([update('a', 1_500)]).late)).toEqual(['a']);
    repeats.done(repeat, new Set());
    expect(repeats.repeatsUnderWay).toBe(0);
    expect(ids(commit(repeats, [update('a', 1_800)]).late)).toEqual(['a']);
    expect(repeats.takeTimes()).toMatchObject([{ deviceId: 'a', at: 2_000, messageId: 'a-2000' }]);
    expect(ids(commit(repeats, [update('a', 3_000)]).write)).toEqual(['a']);
  });

  it('drops a repeat left to write once a write as new as it is applied, one with an event included', async () => {
    const repeats = new RepeatReports(5_000);
    commit(repeats, [update('a', 1_000)]);
    expect(ids(commit(repeats, [update('a', 2_000)]).repeats)).toEqual(['a']);
    expect(repeats.unwrittenTimes).toBe(1);
    // An opening of the same millisecond: written (it is an event), and the repeat's write is not needed.
    const opening = update('a', 2_000, {
      lockState: 'open',
      unlocks: [{ messageId: 'a-open', at: 2_000, receivedAt: 2_000 }],
    });
    expect(ids(commit(repeats, [opening]).write)).toEqual(['a']);
    expect(repeats.unwrittenTimes).toBe(0);
  });
});
