import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activationDeadline,
  candidateSpecs,
  deletePinParams,
  deleteStoredPinParams,
  derivePin,
  dropStoredPin,
  EMPTY_PIN_MEMORY,
  enterPin,
  hotp,
  LOCKOUT_AFTER_FAILURES,
  LOCKOUT_MS,
  type LockPinMemory,
  localDay,
  localHour,
  type PinSpec,
  pinRef,
  pinSpan,
  pinValidAt,
  pinWindows,
  revokePin,
  STORED_GONE_MS,
  type StoredPin,
  setPinParams,
  specOfDeletePinParams,
  specOfRef,
  storedIdOfDeletePinParams,
  storedPinIdOfRef,
  storedPinOfParams,
  storedPinRef,
  storePin,
  totp,
} from './offline-pin.ts';

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
/** Hong Kong / Beijing time, the stations' clock. */
const CST = 480;
const H = 3_600_000;
/** 2026-11-27 09:00 station time, a Friday. */
const FRIDAY_9 = Date.UTC(2026, 10, 27, 1);
const HOUR_9 = localHour(FRIDAY_9, CST);

const enter = (code: string, at: number, memory: LockPinMemory = EMPTY_PIN_MEMORY, secret = RFC_SECRET) =>
  enterPin(secret, code, at, CST, memory);

describe('HOTP (RFC 4226 appendix D)', () => {
  it('gives the RFC values for counters 0–9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(RFC_SECRET, BigInt(counter), 6))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 appendix B)', () => {
  const seeds = {
    sha1: Buffer.from('12345678901234567890', 'ascii'),
    sha256: Buffer.from('12345678901234567890123456789012', 'ascii'),
    sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii'),
  } as const;
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(vectors)('at %i s', (time, sha1, sha256, sha512) => {
    expect(totp(seeds.sha1, time, { algorithm: 'sha1' })).toBe(sha1);
    expect(totp(seeds.sha256, time, { algorithm: 'sha256' })).toBe(sha256);
    expect(totp(seeds.sha512, time, { algorithm: 'sha512' })).toBe(sha512);
  });
});

describe('the test vectors of docs/offline-pins.md', () => {
  it.each<[PinSpec, string, string]>([
    [{ type: 'once', slot: 0, startHour: HOUR_9 }, '0100000000079c89', '312512106'],
    [{ type: 'once', slot: 1, startHour: HOUR_9 }, '0101000000079c89', '972894848'],
    [{ type: 'timePeriod', slot: 0, startHour: HOUR_9 + 11 }, '0200000000079c94', '587026248'],
    [{ type: 'weekly', startWeek: 2970, weeks: 4, weekdays: 0b101 }, '0301850000000b9a', '389936635'],
    [{ type: 'erase', hour: HOUR_9 }, '0e00000000079c89', '157082474'],
  ])('%j', (spec, ref, code) => {
    expect(pinRef(spec)).toBe(ref);
    expect(derivePin(RFC_SECRET, spec)).toBe(code);
    expect(specOfRef(ref)).toEqual(spec);
  });

  it('reads the station clock', () => {
    expect(HOUR_9).toBe(498825);
    expect(localDay(FRIDAY_9, CST)).toEqual({ day: 20784, weekday: 4, week: 2969 });
    // 23:30 UTC on Thursday is already Friday 07:30 in the station.
    expect(localDay(Date.UTC(2026, 10, 26, 23, 30), CST).weekday).toBe(4);
    expect(localDay(Date.UTC(2026, 10, 26, 23, 30), 0).weekday).toBe(3);
  });
});

describe('a once-PIN', () => {
  const spec: PinSpec = { type: 'once', slot: 0, startHour: HOUR_9 };
  const code = derivePin(RFC_SECRET, spec);

  it('opens from the first millisecond of its 2 hours to the last', () => {
    expect(enter(code, FRIDAY_9).outcome).toBe('opened');
    expect(enter(code, FRIDAY_9 + 2 * H - 1).outcome).toBe('opened');
  });

  it('does not open before its start or from the end of its 2 hours', () => {
    expect(enter(code, FRIDAY_9 - 1)).toMatchObject({ outcome: 'refused', reason: 'wrong' });
    expect(enter(code, FRIDAY_9 + 2 * H)).toMatchObject({ outcome: 'refused', reason: 'wrong' });
  });

  it('opens once: the same code again is refused as used', () => {
    const first = enter(code, FRIDAY_9 + 60_000);
    expect(first).toMatchObject({ outcome: 'opened', ref: pinRef(spec) });
    expect(enter(code, FRIDAY_9 + 120_000, first.memory)).toMatchObject({
      outcome: 'refused',
      reason: 'used',
    });
  });

  it('does not open another device (another secret)', () => {
    const other = Buffer.from('another device secret', 'ascii');
    expect(enter(code, FRIDAY_9, EMPTY_PIN_MEMORY, other)).toMatchObject({
      outcome: 'refused',
      reason: 'wrong',
    });
  });

  it('is read in the station time zone: a lock on UTC refuses it at the same instant', () => {
    expect(enterPin(RFC_SECRET, code, FRIDAY_9, 0, EMPTY_PIN_MEMORY).outcome).toBe('refused');
  });

  it('of another slot of the same hour is another code, used independently', () => {
    const second = derivePin(RFC_SECRET, { type: 'once', slot: 1, startHour: HOUR_9 });
    expect(second).not.toBe(code);
    const first = enter(code, FRIDAY_9);
    expect(enter(second, FRIDAY_9, first.memory).outcome).toBe('opened');
  });
});

describe('a time-period PIN', () => {
  /** 22:00 station time, a non-working hour. */
  const spec: PinSpec = { type: 'timePeriod', slot: 3, startHour: HOUR_9 + 13 };
  const code = derivePin(RFC_SECRET, spec);
  const start = FRIDAY_9 + 13 * H;

  it('opens any number of times in its 4 hours, across the day change', () => {
    let memory = EMPTY_PIN_MEMORY;
    for (const at of [start, start + 2 * H, start + 4 * H - 1]) {
      const entry = enter(code, at, memory);
      expect(entry.outcome).toBe('opened');
      memory = entry.memory;
    }
    expect(localDay(start + 4 * H - 1, CST).day).toBe(localDay(start, CST).day + 1);
  });

  it('refuses before and after', () => {
    expect(enter(code, start - 1).outcome).toBe('refused');
    expect(enter(code, start + 4 * H).outcome).toBe('refused');
  });
});

describe('a weekly PIN', () => {
  /** Mondays and Wednesdays of the 4 weeks from Monday 30 Nov 2026. */
  const spec: PinSpec = { type: 'weekly', startWeek: 2970, weeks: 4, weekdays: 0b101 };
  const code = derivePin(RFC_SECRET, spec);
  const monday = Date.UTC(2026, 10, 29, 16);

  it('opens 00:00–06:00 station time on its weekdays, from the first second to the last', () => {
    const first = enter(code, monday);
    expect(first.outcome).toBe('opened');
    expect(enter(code, monday + 6 * H - 1, first.memory).outcome).toBe('opened');
    expect(enter(code, monday + 6 * H, first.memory).outcome).toBe('refused');
    expect(enter(code, monday - 1, first.memory).outcome).toBe('refused');
  });

  it('refuses on the other weekdays (the weekday changes at 00:00 station time)', () => {
    const first = enter(code, monday);
    expect(enter(code, monday + 24 * H, first.memory).outcome).toBe('refused');
    expect(enter(code, monday + 48 * H, first.memory).outcome).toBe('opened');
  });

  it('opens until the last window of its last week, and not in the week after', () => {
    const first = enter(code, monday);
    const lastWednesday = monday + (3 * 7 + 2) * 24 * H;
    expect(enter(code, lastWednesday + 6 * H - 1, first.memory).outcome).toBe('opened');
    expect(enter(code, lastWednesday + 5 * 24 * H, first.memory).outcome).toBe('refused');
    expect(pinSpan(spec, CST)).toEqual({ start: monday, end: lastWednesday + 6 * H });
    expect(pinWindows(spec, CST)).toHaveLength(8);
  });

  it('expires unused 24 h after its first window opens (the activation deadline)', () => {
    expect(activationDeadline(spec, CST)).toBe(monday + 24 * H);
    const late = monday + 48 * H;
    expect(pinValidAt(spec, late, CST)).toBe(false);
    expect(enter(code, late)).toMatchObject({ outcome: 'refused', reason: 'notActivated' });
    const used = enter(code, monday + 60_000);
    expect(enter(code, late, used.memory).outcome).toBe('opened');
    expect(pinValidAt(spec, late, CST, { used: true })).toBe(true);
  });
});

describe('the activation deadline of the short types is their window', () => {
  it.each<PinSpec>([
    { type: 'once', slot: 0, startHour: HOUR_9 },
    { type: 'timePeriod', slot: 0, startHour: HOUR_9 },
  ])('%j', (spec) => {
    expect(activationDeadline(spec, CST)).toBe(pinSpan(spec, CST).end);
  });
});

describe('an erase code', () => {
  const once = derivePin(RFC_SECRET, { type: 'once', slot: 0, startHour: HOUR_9 });
  const erase = derivePin(RFC_SECRET, { type: 'erase', hour: HOUR_9 });

  it('makes the lock refuse every PIN that started at its hour or before, and forget what it held', () => {
    const revoked = revokePin(EMPTY_PIN_MEMORY, { type: 'once', slot: 5, startHour: HOUR_9 + 1 }, CST);
    const erased = enter(erase, FRIDAY_9 + 30 * 60_000, revoked);
    expect(erased.outcome).toBe('erased');
    expect(erased.memory.erasedThroughHour).toBe(HOUR_9);
    expect(Object.keys(erased.memory.revoked)).toHaveLength(1);
    expect(enter(once, FRIDAY_9 + H, erased.memory)).toMatchObject({ outcome: 'refused', reason: 'erased' });
    const next = derivePin(RFC_SECRET, { type: 'once', slot: 0, startHour: HOUR_9 + 1 });
    expect(enter(next, FRIDAY_9 + H, erased.memory).outcome).toBe('opened');
  });

  it('works once, within 24 hours of its hour', () => {
    const erased = enter(erase, FRIDAY_9);
    expect(enter(erase, FRIDAY_9 + 60_000, erased.memory)).toMatchObject({
      outcome: 'refused',
      reason: 'used',
    });
    expect(enter(erase, FRIDAY_9 + 24 * H - 1).outcome).toBe('erased');
    expect(enter(erase, FRIDAY_9 + 24 * H).outcome).toBe('refused');
  });
});

describe('revocation and lock-out', () => {
  it('refuses a revoked PIN inside its window', () => {
    const spec: PinSpec = { type: 'timePeriod', slot: 0, startHour: HOUR_9 };
    const memory = revokePin(EMPTY_PIN_MEMORY, spec, CST);
    expect(enter(derivePin(RFC_SECRET, spec), FRIDAY_9, memory)).toMatchObject({ reason: 'revoked' });
  });

  it(`locks the keypad for 15 minutes after ${LOCKOUT_AFTER_FAILURES} wrong entries, even for a right PIN`, () => {
    const good = derivePin(RFC_SECRET, { type: 'timePeriod', slot: 0, startHour: HOUR_9 });
    let memory = EMPTY_PIN_MEMORY;
    for (let i = 0; i < LOCKOUT_AFTER_FAILURES; i++) {
      const entry = enter('000000000', FRIDAY_9 + i, memory);
      expect(entry).toMatchObject({ outcome: 'refused', reason: 'wrong' });
      memory = entry.memory;
    }
    expect(memory.lockedUntil).toBe(FRIDAY_9 + LOCKOUT_AFTER_FAILURES - 1 + LOCKOUT_MS);
    expect(enter(good, FRIDAY_9 + 60_000, memory)).toMatchObject({ reason: 'lockedOut' });
    expect(enter(good, memory.lockedUntil!, memory).outcome).toBe('opened');
  });

  it('doubles each lock-out that follows without a right PIN, up to a day', () => {
    let memory = EMPTY_PIN_MEMORY;
    let at = FRIDAY_9;
    const lengths: number[] = [];
    for (let lockout = 0; lockout < 9; lockout++) {
      for (let i = 0; i < LOCKOUT_AFTER_FAILURES; i++) memory = enter('000000000', at, memory).memory;
      lengths.push(memory.lockedUntil! - at);
      at = memory.lockedUntil!;
    }
    expect(lengths.map((ms) => ms / 60_000)).toEqual([15, 30, 60, 120, 240, 480, 960, 1440, 1440]);
    const good = derivePin(RFC_SECRET, { type: 'once', slot: 0, startHour: localHour(at, CST) });
    expect(enter(good, at, memory).memory.lockouts).toBe(0);
  });

  it('counts no failure for a right PIN, and resets the count on one', () => {
    const good = derivePin(RFC_SECRET, { type: 'timePeriod', slot: 0, startHour: HOUR_9 });
    const wrong = enter('123', FRIDAY_9);
    expect(wrong.memory.failures).toBe(1);
    expect(enter(good, FRIDAY_9, wrong.memory).memory.failures).toBe(0);
  });

  it('searches a bounded set of candidates (the guessing odds of docs/offline-pins.md)', () => {
    expect(candidateSpecs('389936635', Date.UTC(2026, 10, 29, 16), CST)).toHaveLength(20 + 40 + 4 + 24);
    expect(candidateSpecs('12345678', FRIDAY_9, CST)).toHaveLength(0);
  });
});

describe('property: the lock accepts exactly the PINs the server calls valid', () => {
  const spec = fc.oneof(
    fc.record({
      type: fc.constantFrom('once' as const, 'timePeriod' as const),
      slot: fc.integer({ min: 0, max: 9 }),
      startHour: fc.integer({ min: 480_000, max: 520_000 }),
    }),
    fc.record({
      type: fc.constant('weekly' as const),
      startWeek: fc.integer({ min: 2_850, max: 3_100 }),
      weeks: fc.integer({ min: 1, max: 7 }),
      weekdays: fc.integer({ min: 1, max: 127 }),
    }),
  );

  it('for random secrets, specs, station offsets and times', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        spec,
        fc.constantFrom(480, 0, -300, 330),
        fc.double({ min: -0.1, max: 1.1, noNaN: true }),
        fc.boolean(),
        (secret, s, offset, where, alreadyUsed) => {
          const span = pinSpan(s, offset);
          const at = Math.floor(span.start + where * (span.end - span.start));
          const code = derivePin(secret, s);
          // A PIN used once before (not a once-PIN) is past its activation deadline.
          const memory =
            alreadyUsed && s.type !== 'once'
              ? { ...EMPTY_PIN_MEMORY, activated: { [pinRef(s)]: span.end } }
              : EMPTY_PIN_MEMORY;
          const entry = enterPin(secret, code, at, offset, memory);
          const valid = pinValidAt(s, at, offset, { used: alreadyUsed && s.type !== 'once' });
          expect(entry.outcome === 'opened').toBe(valid);
          if (entry.outcome === 'opened') expect(entry.ref).toBe(pinRef(s));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('deletePin parameters name their spec both ways', () => {
    fc.assert(
      fc.property(spec, (s) => {
        expect(specOfDeletePinParams({ ...deletePinParams(s) })).toEqual(s);
      }),
    );
    expect(specOfDeletePinParams({ pinType: 3, pinParam: 0, pinStart: 2970 })).toBeNull();
    expect(specOfDeletePinParams({ pinType: 1, pinParam: 10, pinStart: 1 })).toBeNull();
    expect(specOfDeletePinParams(undefined)).toBeNull();
  });

  it('references name their spec both ways', () => {
    fc.assert(
      fc.property(spec, (s) => {
        expect(specOfRef(pinRef(s))).toEqual(s);
      }),
    );
  });
});

describe('stored PINs (setPin: durable, and the custom LoRaWAN algorithm)', () => {
  const minute = (at: number) => Math.floor(at / 60_000);
  const durable: StoredPin = {
    id: 7,
    code: '482913570',
    kind: 'durable',
    fromMinute: minute(FRIDAY_9),
    toMinute: minute(FRIDAY_9 + 30 * 24 * H),
    weekdays: 0,
  };
  const holding = (pin: StoredPin) => storePin(EMPTY_PIN_MEMORY, pin);

  it('travel as numbers and come back the same, references and deletions included', () => {
    expect(storedPinOfParams(setPinParams(durable))).toEqual(durable);
    expect(storedPinOfParams({ ...setPinParams(durable), pin: 12345678 })).toBeNull();
    expect(storedPinOfParams({ ...setPinParams(durable), pinKind: 5 })).toBeNull();
    expect(storedPinOfParams({ ...setPinParams(durable), pinTo: durable.fromMinute })).toBeNull();
    expect(storedPinIdOfRef(storedPinRef(7))).toBe(7);
    expect(specOfRef(storedPinRef(7))).toBeNull();
    expect(storedIdOfDeletePinParams({ ...deleteStoredPinParams(7) })).toBe(7);
    expect(specOfDeletePinParams({ ...deleteStoredPinParams(7) })).toBeNull();
  });

  it('a durable PIN opens any number of times inside its window, and not outside', () => {
    let memory = holding(durable);
    for (const at of [FRIDAY_9, FRIDAY_9 + 10 * 24 * H, FRIDAY_9 + 30 * 24 * H - 60_000]) {
      const entry = enter(durable.code, at, memory);
      expect(entry).toMatchObject({ outcome: 'opened', spec: null, ref: storedPinRef(7) });
      memory = entry.memory;
    }
    expect(enter(durable.code, FRIDAY_9 - 1, memory).outcome).toBe('refused');
    expect(enter(durable.code, FRIDAY_9 + 30 * 24 * H, memory).outcome).toBe('refused');
  });

  it('a stored once-PIN opens once, and a setPin that comes again does not bring it back', () => {
    const once: StoredPin = { ...durable, id: 8, kind: 'once', toMinute: minute(FRIDAY_9 + 2 * H) };
    const first = enter(once.code, FRIDAY_9, holding(once));
    expect(first.outcome).toBe('opened');
    expect(enter(once.code, FRIDAY_9 + 60_000, first.memory).outcome).toBe('refused');
    const again = storePin(first.memory, once);
    expect(enter(once.code, FRIDAY_9 + 120_000, again).outcome).toBe('refused');
  });

  it('a deleted or erased stored PIN is not brought back by a late setPin, until it is forgotten', () => {
    const deleted = dropStoredPin(holding(durable), 7, FRIDAY_9);
    expect(storePin(deleted, durable).stored).toEqual({});
    const erase = derivePin(RFC_SECRET, { type: 'erase', hour: HOUR_9 });
    const erased = enter(erase, FRIDAY_9, holding(durable));
    expect(storePin(erased.memory, durable).stored).toEqual({});
    // A deletePin of a PIN never held is remembered a day; a held one until its window ends.
    const unknown = dropStoredPin(EMPTY_PIN_MEMORY, 99, FRIDAY_9);
    expect(unknown.storedGone).toEqual({ '99': FRIDAY_9 + STORED_GONE_MS });
    expect(deleted.storedGone).toEqual({ '7': durable.toMinute * 60_000 });
  });

  it('a stored weekly PIN opens 00:00–06:00 station time on its weekdays only', () => {
    const weekly: StoredPin = { ...durable, id: 9, kind: 'weekly', weekdays: 0b1 };
    const monday = Date.UTC(2026, 10, 29, 16);
    expect(enter(weekly.code, monday, holding(weekly)).outcome).toBe('opened');
    expect(enter(weekly.code, monday + 6 * H, holding(weekly)).outcome).toBe('refused');
    expect(enter(weekly.code, monday + 24 * H, holding(weekly)).outcome).toBe('refused');
  });

  it('a lock given no PIN secret opens only with the PINs it holds, never with a derived one', () => {
    const derived = derivePin(RFC_SECRET, { type: 'timePeriod', slot: 0, startHour: HOUR_9 });
    expect(enterPin(null, derived, FRIDAY_9, CST, holding(durable)).outcome).toBe('refused');
    expect(enterPin(null, durable.code, FRIDAY_9, CST, holding(durable)).outcome).toBe('opened');
  });

  it('a deleted or erased stored PIN no longer opens; a lock without it refuses', () => {
    expect(enter(durable.code, FRIDAY_9).outcome).toBe('refused');
    expect(enter(durable.code, FRIDAY_9, dropStoredPin(holding(durable), 7, FRIDAY_9)).outcome).toBe(
      'refused',
    );
    const erase = derivePin(RFC_SECRET, { type: 'erase', hour: HOUR_9 });
    const erased = enter(erase, FRIDAY_9, holding(durable));
    expect(erased.outcome).toBe('erased');
    expect(enter(durable.code, FRIDAY_9 + 60_000, erased.memory).outcome).toBe('refused');
  });
});
