import type { Lang } from '@uiot/contracts';

const UNITS = [
  { unit: 'day', seconds: 86_400 },
  { unit: 'hour', seconds: 3600 },
  { unit: 'minute', seconds: 60 },
  { unit: 'second', seconds: 1 },
] as const;
export type DurationUnit = (typeof UNITS)[number]['unit'];

/** Seconds split into days, hours, minutes and seconds, largest first, leaving out the zero ones. */
export function durationParts(seconds: number): { unit: DurationUnit; value: number }[] {
  if (!Number.isFinite(seconds) || seconds <= 0) return [];
  let rest = Math.floor(seconds);
  return UNITS.flatMap(({ unit, seconds: size }) => {
    const value = Math.floor(rest / size);
    rest -= value * size;
    return value > 0 ? [{ unit, value }] : [];
  });
}

/**
 * An interval in seconds as people read it, in the language's own words: 3600 → "1 hr" / "1小时",
 * 5400 → "1 hr 30 min". Empty for no positive interval.
 */
export function formatInterval(seconds: number, lang: Lang): string {
  const parts = durationParts(seconds).map(({ unit, value }) =>
    new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short' }).format(value),
  );
  return new Intl.ListFormat(lang, { type: 'unit', style: 'narrow' }).format(parts);
}
