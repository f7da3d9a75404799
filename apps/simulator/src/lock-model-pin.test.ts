/**
 * The simulated lock's keypad: offline PINs verified as docs/offline-pins.md says, each use and each
 * lock-out reported. Codes come from the server's derivation (`derivePin`), so these tests fail when the
 * lock and the server stop agreeing.
 */
import {
  decodeNativeReport,
  deletePinParams,
  deleteStoredPinParams,
  derivePin,
  encodeNativeReport,
  LOCKOUT_MS,
  localHour,
  type PinSpec,
  pinRef,
  setPinParams,
  storedPinRef,
} from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import { type LockBehaviour, LockModel, type LockModelOptions, type ReportToSend } from './lock-model.ts';
import { createRandom } from './random.ts';

// The test vectors' secret and hour: Friday 2026-11-27 09:00 station time (UTC+8) is 01:00 UTC.
const SECRET = new TextEncoder().encode('12345678901234567890');
const T0 = Date.UTC(2026, 10, 27, 1, 0, 0);
const OFFSET = 480;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const HOUR_INDEX = localHour(T0, OFFSET);

const QUIET: Partial<LockBehaviour> = {
  doorEpisodeMeanSeconds: Number.POSITIVE_INFINITY,
  damageMeanSeconds: Number.POSITIVE_INFINITY,
  offlineMeanSeconds: Number.POSITIVE_INFINITY,
  batteryDrainPerHour: 0,
  jamProbability: 0,
  forgottenDoorProbability: 0,
};

const ONCE: PinSpec = { type: 'once', slot: 0, startHour: HOUR_INDEX };
const ONCE_CODE = derivePin(SECRET, ONCE);
const WRONG_CODE = '000000000';

function pinLock(options: Partial<LockModelOptions> = {}): LockModel {
  const model = new LockModel({
    code: 'L-0001',
    idPrefix: 'run1',
    random: createRandom(11),
    startAt: T0,
    battery: 80,
    behaviour: QUIET,
    pinSecret: SECRET,
    ...options,
  });
  model.tick(T0);
  return model;
}

/** Ticks from `from` to `to` every second and returns every report. */
function run(model: LockModel, from: number, to: number): ReportToSend[] {
  const reports: ReportToSend[] = [];
  for (let now = from; now <= to; now += SECOND) reports.push(...model.tick(now));
  return reports;
}

const notHeartbeat = (r: ReportToSend): boolean => r.event !== 'heartbeat';

describe('LockModel offline PINs', () => {
  it('opens once for a once-PIN, reporting pinUsed with its reference instead of lockChanged', () => {
    expect(ONCE_CODE).toBe('312512106');
    const model = pinLock();
    const at = T0 + 10 * MINUTE;
    expect(model.enterPin(ONCE_CODE, at)).toEqual({ outcome: 'opened', pinRef: '0100000000079c89' });
    expect(model.state.lock).toBe('open');

    const opening = model.tick(at).filter(notHeartbeat);
    expect(opening).toHaveLength(1);
    expect(opening[0]).toMatchObject({
      event: 'pinUsed',
      lock: 'open',
      reportedAt: at,
      props: { pinRef: pinRef(ONCE) },
    });
    expect(JSON.stringify(opening)).not.toContain(ONCE_CODE);
    // The property reaches the wire.
    const decoded = decodeNativeReport(encodeNativeReport(opening[0] as ReportToSend));
    expect(decoded.ok && decoded.value.kind === 'report' && decoded.value.props).toEqual({
      pinRef: '0100000000079c89',
    });

    // The one who typed it opens the door, closes it, and the lock relocks.
    const episode = run(model, at + SECOND, at + 10 * MINUTE).filter(notHeartbeat);
    expect(episode.map((r) => [r.event, r.lock, r.door])).toEqual([
      ['doorChanged', 'open', 'open'],
      ['doorChanged', 'open', 'closed'],
      ['lockChanged', 'closed', 'closed'],
    ]);

    const again = at + 20 * MINUTE;
    expect(model.enterPin(ONCE_CODE, again)).toEqual({ outcome: 'refused', reason: 'used' });
    expect(model.tick(again).filter(notHeartbeat)).toEqual([]);
    expect(model.state.lock).toBe('closed');
  });

  it('refuses a PIN outside its window', () => {
    const model = pinLock();
    const later: PinSpec = { type: 'once', slot: 0, startHour: HOUR_INDEX + 1 };
    expect(model.enterPin(derivePin(SECRET, later), T0 + 30 * MINUTE)).toEqual({
      outcome: 'refused',
      reason: 'wrong',
    });
    expect(model.state.lock).toBe('closed');
  });

  it('reports a lock-out after 5 wrong codes, once, and refuses even a right PIN while it lasts', () => {
    const model = pinLock();
    const lockouts: ReportToSend[] = [];
    for (let i = 1; i <= 4; i++) {
      expect(model.enterPin(WRONG_CODE, T0 + i * SECOND)).toEqual({ outcome: 'refused', reason: 'wrong' });
      expect(model.tick(T0 + i * SECOND).filter(notHeartbeat)).toEqual([]);
    }
    expect(model.enterPin(WRONG_CODE, T0 + 5 * SECOND)).toEqual({ outcome: 'refused', reason: 'wrong' });
    lockouts.push(...model.tick(T0 + 5 * SECOND).filter(notHeartbeat));
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ event: 'pinLockout', lock: 'closed', reportedAt: T0 + 5 * SECOND });
    expect(lockouts[0]?.props).toBeUndefined();

    expect(model.enterPin(ONCE_CODE, T0 + 6 * SECOND)).toEqual({ outcome: 'refused', reason: 'lockedOut' });
    expect(model.enterPin(WRONG_CODE, T0 + 7 * SECOND)).toEqual({ outcome: 'refused', reason: 'lockedOut' });
    expect(model.tick(T0 + 7 * SECOND).filter(notHeartbeat)).toEqual([]);
    expect(model.state.lock).toBe('closed');

    // Once the lock-out has passed, the right PIN opens.
    const after = T0 + 5 * SECOND + LOCKOUT_MS;
    expect(model.enterPin(ONCE_CODE, after)).toMatchObject({ outcome: 'opened' });
  });

  it('keeps a PIN the server sends (setPin), opens with it, and drops it on deletePin', () => {
    const model = pinLock();
    const stored = {
      id: 41,
      code: '730118264',
      kind: 'durable' as const,
      fromMinute: T0 / MINUTE,
      toMinute: T0 / MINUTE + 24 * 60,
      weekdays: 0,
    };
    expect(
      model.handleCommand({ id: 'set-1', cmd: 'setPin', params: setPinParams(stored) }, T0),
    ).toMatchObject({
      outcome: 'Success',
    });
    expect(model.enterPin(stored.code, T0 + MINUTE)).toEqual({ outcome: 'opened', pinRef: storedPinRef(41) });
    model.handleCommand(
      { id: 'del-2', cmd: 'deletePin', params: { ...deleteStoredPinParams(41) } },
      T0 + HOUR,
    );
    expect(model.enterPin(stored.code, T0 + 2 * HOUR)).toMatchObject({ outcome: 'refused' });
    expect(
      model.handleCommand({ id: 'set-2', cmd: 'setPin', params: { pinId: 1 } }, T0 + 2 * HOUR),
    ).toMatchObject({ outcome: 'Failure', detail: 'bad params' });
  });

  it('refuses a PIN the server deleted (deletePin)', () => {
    const model = pinLock();
    const answer = model.handleCommand(
      { id: 'del-1', cmd: 'deletePin', params: { ...deletePinParams(ONCE) } },
      T0 + MINUTE,
    );
    expect(answer).toMatchObject({ commandId: 'del-1', outcome: 'Success' });
    expect(model.enterPin(ONCE_CODE, T0 + 2 * MINUTE)).toEqual({ outcome: 'refused', reason: 'revoked' });
    expect(model.tick(T0 + 2 * MINUTE).filter(notHeartbeat)).toEqual([]);
    expect(model.state.lock).toBe('closed');

    // Another slot of the same hour still opens.
    const other: PinSpec = { type: 'once', slot: 1, startHour: HOUR_INDEX };
    expect(model.enterPin(derivePin(SECRET, other), T0 + 3 * MINUTE)).toEqual({
      outcome: 'opened',
      pinRef: pinRef(other),
    });
  });

  it.each<[string, Record<string, string | number | boolean> | undefined]>([
    ['no parameters', undefined],
    ['a missing start', { pinType: 1, pinParam: 0 }],
    ['an unknown type', { pinType: 14, pinParam: 0, pinStart: HOUR_INDEX }],
    ['slot 10', { pinType: 1, pinParam: 10, pinStart: HOUR_INDEX }],
    ['a text parameter', { pinType: 1, pinParam: '0', pinStart: HOUR_INDEX }],
  ])('fails a deletePin with %s, and the PIN still opens', (_name, params) => {
    const model = pinLock();
    expect(
      model.handleCommand({ id: 'del-2', cmd: 'deletePin', ...(params ? { params } : {}) }, T0 + MINUTE),
    ).toMatchObject({ commandId: 'del-2', outcome: 'Failure', detail: 'bad params' });
    expect(model.enterPin(ONCE_CODE, T0 + 2 * MINUTE)).toMatchObject({ outcome: 'opened' });
  });

  it('takes an erase code: reported as a use, opens nothing, and older PINs stop working', () => {
    const model = pinLock();
    const erase: PinSpec = { type: 'erase', hour: HOUR_INDEX };
    expect(derivePin(SECRET, erase)).toBe('157082474');
    expect(model.enterPin('157082474', T0 + MINUTE)).toEqual({
      outcome: 'erased',
      pinRef: '0e00000000079c89',
    });
    expect(model.tick(T0 + MINUTE).filter(notHeartbeat)).toEqual([
      expect.objectContaining({ event: 'pinUsed', lock: 'closed', props: { pinRef: '0e00000000079c89' } }),
    ]);
    expect(model.state.lock).toBe('closed');
    expect(model.enterPin(ONCE_CODE, T0 + 2 * MINUTE)).toEqual({ outcome: 'refused', reason: 'erased' });
  });

  it('refuses every code without a PIN secret, and never locks out', () => {
    const model = pinLock({ pinSecret: undefined });
    for (let i = 1; i <= 6; i++) {
      expect(model.enterPin(ONCE_CODE, T0 + i * SECOND)).toEqual({ outcome: 'refused', reason: 'wrong' });
    }
    expect(model.tick(T0 + 6 * SECOND).filter(notHeartbeat)).toEqual([]);
    expect(model.state.lock).toBe('closed');
  });

  it('counts windows on the station clock it is given', () => {
    // At UTC+0 the same instant is hour 498 817, so the UTC+8 PIN is not among the candidates.
    const model = pinLock({ utcOffsetMinutes: 0 });
    expect(model.enterPin(ONCE_CODE, T0 + MINUTE)).toEqual({ outcome: 'refused', reason: 'wrong' });
    const utc: PinSpec = { type: 'once', slot: 0, startHour: localHour(T0, 0) };
    expect(model.enterPin(derivePin(SECRET, utc), T0 + MINUTE)).toMatchObject({ outcome: 'opened' });
  });

  it('reports a use made while offline once it is back', () => {
    const model = pinLock({ behaviour: { ...QUIET, offlineMeanSeconds: 600 } });
    let now = T0;
    while (model.state.online && now < T0 + HOUR) {
      now += SECOND;
      model.tick(now);
    }
    expect(model.state.online).toBe(false);
    expect(model.enterPin(ONCE_CODE, now)).toMatchObject({ outcome: 'opened' });
    expect(model.tick(now)).toEqual([]);
    const back: ReportToSend[] = [];
    while (back.length === 0 && now < T0 + 2 * HOUR) {
      now += SECOND;
      back.push(...model.tick(now));
    }
    expect(back[0]).toMatchObject({ event: 'pinUsed', props: { pinRef: pinRef(ONCE) } });
    expect(back[1]?.event).toBe('heartbeat');
  });

  it('tells the same story for the same entries', () => {
    const story = (): ReportToSend[] => {
      const model = pinLock({ behaviour: {} });
      const reports = run(model, T0, T0 + 30 * MINUTE);
      model.enterPin(WRONG_CODE, T0 + 31 * MINUTE);
      model.enterPin(ONCE_CODE, T0 + 32 * MINUTE);
      return [...reports, ...run(model, T0 + 32 * MINUTE, T0 + HOUR)];
    };
    const first = story();
    expect(first.some((r) => r.event === 'pinUsed')).toBe(true);
    expect(story()).toEqual(first);
  });
});
