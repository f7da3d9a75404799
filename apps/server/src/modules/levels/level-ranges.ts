import {
  type BatteryBandScale,
  DEFAULT_BATTERY_BANDS,
  type FieldIssue,
  type PowerLevelState,
} from '@uiot/contracts';

/** A level's number and range: it holds start ≤ value < end (and its end too when it is the highest). */
export interface LevelRange {
  level: number;
  startValue: number;
  endValue: number;
}

/** Whether two ranges share a value. Ranges exclude their end, so [0, 50) and [50, 100) do not. */
export function rangesOverlap(a: LevelRange, b: LevelRange): boolean {
  return a.startValue < b.endValue && b.startValue < a.endValue;
}

/**
 * Why a level may not stand beside the other levels of its kind: its number is taken (on `level`), or its
 * range overlaps another's (on a bound that lies inside another range, on both when it covers one).
 * Validation keys, translated with the field issues; none when the level fits.
 */
export function levelConflicts(candidate: LevelRange, others: readonly LevelRange[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (others.some((other) => other.level === candidate.level)) {
    issues.push({ path: 'level', message: 'v.levelTaken' });
  }
  const overlapping = others.filter((other) => rangesOverlap(candidate, other));
  const startInside = overlapping.some(
    (o) => o.startValue <= candidate.startValue && candidate.startValue < o.endValue,
  );
  const endInside = overlapping.some(
    (o) => o.startValue < candidate.endValue && candidate.endValue <= o.endValue,
  );
  const covers = overlapping.some(
    (o) => candidate.startValue <= o.startValue && o.endValue <= candidate.endValue,
  );
  if (startInside || covers) issues.push({ path: 'startValue', message: 'v.rangeOverlap' });
  if (endInside || covers) issues.push({ path: 'endValue', message: 'v.rangeOverlap' });
  return issues;
}

/**
 * The level a value falls in: the one whose range holds start ≤ value < end; the highest range (the
 * greatest end) also holds its end, so a battery of 100 % falls in a level ending at 100. A value in no
 * range (below the lowest, above the highest, in a gap, or unknown) has no level: null.
 */
export function levelOf<L extends LevelRange>(
  value: number | null | undefined,
  levels: readonly L[],
): L | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const inside = levels.find((l) => l.startValue <= value && value < l.endValue);
  if (inside) return inside;
  const highest = levels.reduce<L | null>((top, l) => (top && top.endValue >= l.endValue ? top : l), null);
  return highest && value === highest.endValue ? highest : null;
}

/**
 * The monitor's battery bands from the power levels: low is below the end of the highest lowPower range
 * (0 when no level is lowPower, so nothing is low); high starts at the highest normal range at or above it
 * (everything not low is high when there is none); medium is between. With the battery's lowPower levels
 * below its normal ones, low is exactly the lowPower levels' battery.
 */
export function batteryBandsOf(
  levels: readonly (LevelRange & { state: PowerLevelState })[],
): BatteryBandScale {
  // While no power level is defined the monitor keeps its fixed bands (20 / 60 %).
  if (levels.length === 0) return DEFAULT_BATTERY_BANDS;
  const lowBelow = Math.max(0, ...levels.filter((l) => l.state === 'lowPower').map((l) => l.endValue));
  const normalStarts = levels
    .filter((l) => l.state === 'normal' && l.startValue >= lowBelow)
    .map((l) => l.startValue);
  const highFrom = normalStarts.length > 0 ? Math.max(...normalStarts) : lowBelow;
  return { lowBelow, highFrom, fromLevels: true };
}
