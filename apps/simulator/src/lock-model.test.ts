import { decodeNativeReport, encodeNativeReport } from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import {
  DOOR_OPEN_LIMIT_MS,
  type LockBehaviour,
  LockModel,
  type LockModelOptions,
  messageIdStem,
  type ReportToSend,
} from './lock-model.ts';
import { createRandom } from './random.ts';

const T0 = Date.UTC(2025, 10, 21, 8, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Nothing happens by chance: only heartbeats, and what a test provokes. */
const QUIET: Partial<LockBehaviour> = {
  doorEpisodeMeanSeconds: Number.POSITIVE_INFINITY,
  damageMeanSeconds: Number.POSITIVE_INFINITY,
  offlineMeanSeconds: Number.POSITIVE_INFINITY,
  batteryDrainPerHour: 0,
  jamProbability: 0,
};

function lockModel(options: Partial<LockModelOptions> & { seed?: number } = {}): LockModel {
  const { seed = 7, ...rest } = options;
  return new LockModel({
    code: 'L-0001',
    idPrefix: 'run1',
    random: createRandom(seed),
    startAt: T0,
    battery: 80,
    behaviour: QUIET,
    ...rest,
  });
}

/** Ticks from `from` to `to` every `stepMs` and returns every report. */
function run(model: LockModel, from: number, to: number, stepMs: number): ReportToSend[] {
  const reports: ReportToSend[] = [];
  for (let now = from; now <= to; now += stepMs) reports.push(...model.tick(now));
  return reports;
}

const notHeartbeat = (r: ReportToSend): boolean => r.event !== 'heartbeat';

describe('LockModel heartbeats', () => {
  it('boots with a boot report, then beats every 60 s ± 10 %', () => {
    const model = lockModel();
    const first = model.tick(T0);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      event: 'boot',
      reportedAt: T0,
      lock: 'closed',
      door: 'closed',
      battery: 80,
    });

    const beats = run(model, T0 + SECOND, T0 + 2 * HOUR, SECOND).filter((r) => r.event === 'heartbeat');
    const times = beats.map((r) => r.reportedAt as number);
    // The first beat has a random phase within one interval, so that a fleet started at once spreads out.
    expect(times[0]).toBeGreaterThanOrEqual(T0);
    expect(times[0]).toBeLessThanOrEqual(T0 + MINUTE);
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] as number) - (times[i - 1] as number);
      expect(gap).toBeGreaterThanOrEqual(54 * SECOND);
      expect(gap).toBeLessThanOrEqual(66 * SECOND);
    }
    expect(beats.length).toBeGreaterThanOrEqual(109);
    expect(beats.length).toBeLessThanOrEqual(134);
  });

  it('sends the same reports whether ticked every second or once', () => {
    const fine = lockModel({ seed: 3, behaviour: {} });
    const coarse = lockModel({ seed: 3, behaviour: {} });
    const day = T0 + 24 * HOUR;
    const fineReports = run(fine, T0, day, SECOND);
    const coarseReports = coarse.tick(day);
    expect(coarseReports).toEqual(fineReports);
    expect(coarseReports.length).toBeGreaterThan(1000);
  });

  it('honours heartbeatSeconds and a setParam that changes it', () => {
    const model = lockModel({ behaviour: { ...QUIET, heartbeatSeconds: 10 } });
    model.tick(T0);
    const beats = run(model, T0, T0 + 10 * MINUTE, SECOND).filter((r) => r.event === 'heartbeat');
    expect(beats.length).toBeGreaterThanOrEqual(54);
    expect(beats.length).toBeLessThanOrEqual(67);

    const at = T0 + 10 * MINUTE;
    const answer = model.handleCommand({ id: 'c1', cmd: 'setParam', params: { heartbeatSeconds: 300 } }, at);
    expect(answer?.outcome).toBe('Success');
    const later = run(model, at + SECOND, at + HOUR, SECOND).filter((r) => r.event === 'heartbeat');
    expect(later.length).toBeGreaterThanOrEqual(10);
    expect(later.length).toBeLessThanOrEqual(14);
  });
});

describe('LockModel door episodes', () => {
  it('unlocks, opens, times out after 5 minutes, closes the door, then the lock', () => {
    const model = lockModel();
    model.tick(T0);
    model.beginDoorEpisode(T0 + MINUTE / 2, 400);
    const events = run(model, T0 + MINUTE / 2, T0 + 20 * MINUTE, 500).filter(notHeartbeat);
    expect(events.map((r) => [r.event, r.lock, r.door, r.runState])).toEqual([
      ['lockChanged', 'open', 'closed', 'normal'],
      ['doorChanged', 'open', 'open', 'normal'],
      ['status', 'open', 'open', 'timeOutNotClosed'],
      ['doorChanged', 'open', 'closed', 'normal'],
      ['lockChanged', 'closed', 'closed', 'normal'],
    ]);
    const [unlocked, doorOpened, timedOut, doorClosed, locked] = events.map(
      (r) => r.reportedAt as number,
    ) as [number, number, number, number, number];
    expect(unlocked).toBe(T0 + MINUTE / 2);
    expect(doorOpened - unlocked).toBeGreaterThanOrEqual(2 * SECOND);
    expect(doorOpened - unlocked).toBeLessThanOrEqual(10 * SECOND);
    expect(timedOut - doorOpened).toBe(DOOR_OPEN_LIMIT_MS);
    expect(doorClosed - doorOpened).toBe(400 * SECOND);
    expect(locked - doorClosed).toBeGreaterThanOrEqual(SECOND);
    expect(locked - doorClosed).toBeLessThanOrEqual(5 * SECOND);
    expect(model.state).toMatchObject({ lock: 'closed', door: 'closed', runState: 'normal' });
  });

  it('never times out a door closed within 5 minutes', () => {
    const model = lockModel();
    model.tick(T0);
    model.beginDoorEpisode(T0, 299);
    const reports = run(model, T0, T0 + 15 * MINUTE, SECOND);
    expect(reports.some((r) => r.runState === 'timeOutNotClosed')).toBe(false);
    expect(reports.filter(notHeartbeat).map((r) => r.event)).toEqual([
      'lockChanged',
      'doorChanged',
      'doorChanged',
      'lockChanged',
    ]);
  });

  it('has episodes by itself, some of them forgotten doors', () => {
    const model = lockModel({
      seed: 11,
      behaviour: { ...QUIET, doorEpisodeMeanSeconds: 1800, forgottenDoorProbability: 0.2 },
    });
    const reports = run(model, T0, T0 + 48 * HOUR, 10 * SECOND);
    const opens = reports.filter((r) => r.event === 'doorChanged' && r.door === 'open');
    const closes = reports.filter((r) => r.event === 'doorChanged' && r.door === 'closed');
    expect(opens.length).toBeGreaterThan(40);
    expect(opens.length).toBeLessThan(140);
    expect(closes.length).toBeGreaterThanOrEqual(opens.length - 1);
    expect(reports.some((r) => r.runState === 'timeOutNotClosed')).toBe(true);
  });
});

describe('LockModel battery', () => {
  it('drains, turns lowPower below 20 % and sends lowBattery once', () => {
    const model = lockModel({ battery: 21, behaviour: { ...QUIET, batteryDrainPerHour: 1 } });
    const reports = run(model, T0, T0 + 10 * HOUR, 10 * SECOND);
    const low = reports.filter((r) => r.event === 'lowBattery');
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ runState: 'lowPower', battery: 19 });
    // 21 % at 1 %/h falls below 20 % one hour in.
    expect(low[0]?.reportedAt).toBeGreaterThanOrEqual(T0 + HOUR);
    expect(low[0]?.reportedAt).toBeLessThanOrEqual(T0 + HOUR + SECOND);
    const batteries = reports.map((r) => r.battery as number);
    for (let i = 1; i < batteries.length; i++) {
      expect(batteries[i]).toBeLessThanOrEqual(batteries[i - 1] as number);
    }
    expect(
      reports.filter((r) => (r.reportedAt as number) < T0 + HOUR).every((r) => r.runState === 'normal'),
    ).toBe(true);
    expect(reports.at(-1)).toMatchObject({ battery: 11, runState: 'lowPower' });
  });

  it('reports a low battery right after booting with one', () => {
    const model = lockModel({ battery: 12 });
    expect(model.tick(T0).map((r) => [r.event, r.runState, r.battery])).toEqual([
      ['boot', 'lowPower', 12],
      ['lowBattery', 'lowPower', 12],
    ]);
    expect(run(model, T0, T0 + 5 * HOUR, MINUTE).some((r) => r.event === 'lowBattery')).toBe(false);
  });

  it('never goes below 0 %', () => {
    const model = lockModel({ battery: 1, behaviour: { ...QUIET, batteryDrainPerHour: 10 } });
    const reports = run(model, T0, T0 + 10 * HOUR, MINUTE);
    expect(reports.at(-1)?.battery).toBe(0);
  });
});

describe('LockModel damage and offline periods', () => {
  it('gets damaged, reports it, and recovers later', () => {
    const model = lockModel({ seed: 5, behaviour: { ...QUIET, damageMeanSeconds: 3600 } });
    const reports = run(model, T0, T0 + 24 * HOUR, 10 * SECOND);
    const damage = reports.findIndex((r) => r.event === 'damage');
    expect(damage).toBeGreaterThanOrEqual(0);
    expect(reports[damage]?.runState).toBe('damaged');
    const recovered = reports.slice(damage).find((r) => r.event === 'status');
    expect(recovered?.runState).toBe('normal');
    const minutes = ((recovered?.reportedAt as number) - (reports[damage]?.reportedAt as number)) / MINUTE;
    expect(minutes).toBeGreaterThanOrEqual(10);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it('goes silent for a few heartbeat intervals and comes back with a heartbeat', () => {
    const model = lockModel({ seed: 9, behaviour: { ...QUIET, offlineMeanSeconds: 3 * 3600 } });
    const reports = run(model, T0, T0 + 24 * HOUR, SECOND);
    const gaps: number[] = [];
    for (let i = 1; i < reports.length; i++) {
      gaps.push((reports[i]?.reportedAt as number) - (reports[i - 1]?.reportedAt as number));
    }
    const silences = gaps.filter((gap) => gap > 70 * SECOND);
    expect(silences.length).toBeGreaterThan(0);
    for (const silence of silences) {
      // 2–5 intervals offline, plus up to one heartbeat on either side.
      expect(silence).toBeGreaterThanOrEqual(2 * MINUTE);
      expect(silence).toBeLessThanOrEqual(7 * MINUTE);
    }
  });

  it('does not answer commands while offline', () => {
    const model = lockModel({ seed: 9, behaviour: { ...QUIET, offlineMeanSeconds: 3 * 3600 } });
    let now = T0;
    while (model.state.online && now < T0 + 48 * HOUR) {
      now += SECOND;
      model.tick(now);
    }
    expect(model.state.online).toBe(false);
    expect(model.handleCommand({ id: 'c', cmd: 'open' }, now)).toBeNull();
    expect(model.state.lock).toBe('closed');
  });
});

describe('LockModel commands', () => {
  it('opens and closes, answering Success and reporting the change', () => {
    const model = lockModel({ behaviour: { ...QUIET, doorAfterRemoteOpenProbability: 0 } });
    model.tick(T0);
    const opened = model.handleCommand({ id: 'cmd-1', cmd: 'open' }, T0 + SECOND);
    expect(opened).toEqual({
      messageId: 'run1-L-0001-0000000002',
      commandId: 'cmd-1',
      outcome: 'Success',
      reportedAt: T0 + SECOND,
    });
    expect(model.state.lock).toBe('open');
    expect(model.tick(T0 + SECOND)).toMatchObject([{ event: 'lockChanged', lock: 'open' }]);

    const closed = model.handleCommand({ id: 'cmd-2', cmd: 'close' }, T0 + 2 * SECOND);
    expect(closed).toMatchObject({ commandId: 'cmd-2', outcome: 'Success' });
    expect(model.state.lock).toBe('closed');
    expect(model.tick(T0 + 2 * SECOND)).toMatchObject([{ event: 'lockChanged', lock: 'closed' }]);
  });

  it('relocks by itself when nobody opens the door after a remote unlock', () => {
    const model = lockModel({ behaviour: { ...QUIET, doorAfterRemoteOpenProbability: 0 } });
    model.tick(T0);
    model.handleCommand({ id: 'c', cmd: 'open' }, T0);
    const events = run(model, T0, T0 + MINUTE, SECOND).filter(notHeartbeat);
    expect(events.map((r) => [r.event, r.lock, r.reportedAt])).toEqual([
      ['lockChanged', 'open', T0],
      ['lockChanged', 'closed', T0 + 30 * SECOND],
    ]);
  });

  it('ignores an expired command', () => {
    const model = lockModel();
    model.tick(T0);
    expect(model.handleCommand({ id: 'c', cmd: 'open', expireAt: T0 - 1 }, T0)).toBeNull();
    expect(model.state.lock).toBe('closed');
    expect(model.tick(T0)).toEqual([]);
    // Expiry is judged on the real clock even when the simulation runs ahead of it.
    expect(
      model.handleCommand({ id: 'c', cmd: 'open', expireAt: T0 + MINUTE }, T0 + HOUR, T0),
    ).not.toBeNull();
    expect(model.handleCommand({ id: 'c', cmd: 'close', expireAt: T0 + MINUTE }, T0 + HOUR)).toBeNull();
    expect(model.handleCommand({ id: 'c', cmd: 'close', expireAt: T0 + HOUR }, T0 + HOUR)?.outcome).toBe(
      'Success',
    );
  });

  it('fails with damaged while damaged, and with jammed now and then', () => {
    const damaged = lockModel({ seed: 5, behaviour: { ...QUIET, damageMeanSeconds: 3600 } });
    let now = T0;
    while (damaged.state.runState !== 'damaged' && now < T0 + 48 * HOUR) {
      now += SECOND;
      damaged.tick(now);
    }
    expect(damaged.handleCommand({ id: 'c', cmd: 'open' }, now)).toMatchObject({
      outcome: 'Failure',
      detail: 'damaged',
    });
    expect(damaged.state.lock).toBe('closed');

    const jamming = lockModel({ behaviour: { ...QUIET, jamProbability: 1 } });
    expect(jamming.handleCommand({ id: 'c', cmd: 'open' }, T0)).toMatchObject({
      outcome: 'Failure',
      detail: 'jammed',
    });
    expect(jamming.state.lock).toBe('closed');

    // The default: about 2 % of bolt commands jam.
    const usual = lockModel({ seed: 1, behaviour: { ...QUIET, jamProbability: 0.02 } });
    let jams = 0;
    for (let i = 0; i < 5000; i++) {
      const answer = usual.handleCommand({ id: `c${i}`, cmd: i % 2 === 0 ? 'open' : 'close' }, T0);
      if (answer?.detail === 'jammed') jams += 1;
    }
    expect(jams).toBeGreaterThan(60);
    expect(jams).toBeLessThan(140);
  });

  it('answers setParam and setPassword with Success and an unknown command with Failure', () => {
    const model = lockModel();
    expect(model.handleCommand({ id: 'p', cmd: 'setPassword', params: { pin: '123456' } }, T0)?.outcome).toBe(
      'Success',
    );
    expect(model.handleCommand({ id: 's', cmd: 'setParam', params: { volume: 3 } }, T0)?.outcome).toBe(
      'Success',
    );
    expect(model.handleCommand({ id: 'x', cmd: 'selfDestruct' }, T0)).toMatchObject({
      outcome: 'Failure',
      detail: 'unsupported command',
    });
  });
});

describe('LockModel message ids and determinism', () => {
  it('gives every report and answer a unique id the native protocol accepts', () => {
    const model = lockModel({ seed: 2, behaviour: { doorEpisodeMeanSeconds: 600, damageMeanSeconds: 7200 } });
    const ids: string[] = [];
    for (let now = T0; now < T0 + 24 * HOUR; now += 30 * SECOND) {
      for (const report of model.tick(now)) {
        ids.push(report.messageId);
        const decoded = decodeNativeReport(encodeNativeReport(report));
        expect(decoded.ok, JSON.stringify(decoded)).toBe(true);
      }
      if (now % (10 * MINUTE) === 0) {
        const answer = model.handleCommand({ id: `c${now}`, cmd: 'open' }, now);
        if (answer) ids.push(answer.messageId);
      }
    }
    expect(ids.length).toBeGreaterThan(1500);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^run1-L-0001-\d+$/);
  });

  it('uses the per-start prefix so a restarted lock never repeats an id', () => {
    const before = lockModel({ idPrefix: 'a1b2c3d4' });
    const after = lockModel({ idPrefix: 'e5f6a7b8' });
    const first = run(before, T0, T0 + HOUR, MINUTE).map((r) => r.messageId);
    const second = run(after, T0, T0 + HOUR, MINUTE).map((r) => r.messageId);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });

  it('keeps ids within 64 characters of the allowed alphabet whatever the code', () => {
    expect(messageIdStem('p1', 'L 01/ä')).toBe('p1-L_01__');
    expect(messageIdStem('p1', 'X'.repeat(80)).length).toBe(53);
  });

  it('tells the same story for the same seed, another for another seed', () => {
    const story = (seed: number) =>
      run(
        lockModel({ seed, battery: undefined, behaviour: { doorEpisodeMeanSeconds: 900 } }),
        T0,
        T0 + 12 * HOUR,
        5000,
      );
    expect(story(42)).toEqual(story(42));
    expect(story(43)).not.toEqual(story(42));
  });
});
