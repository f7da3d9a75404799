import {
  BATTERY_BANDS,
  type BatteryBand,
  type BatteryBandScale,
  type Lang,
  OPEN_STATES,
  type OpenState,
  RUN_STATES,
  type RunState,
} from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { SelectOption } from '../../lib/crud/index.ts';

/** Labels and choices of the runtime data's enumerations (spec §3 Runtime data, §4 states). */

export const onlineLabel = (t: TFunction, online: boolean) =>
  online ? t('monitor:online.true') : t('monitor:online.false');
/** The online search: sent as text, as the query reads it. */
export const onlineOptions = (t: TFunction): SelectOption[] => [
  { value: 'true', label: onlineLabel(t, true) },
  { value: 'false', label: onlineLabel(t, false) },
];

export const openStateLabel = (t: TFunction, state: OpenState) => t(`monitor:openState.${state}`);
export const openStateOptions = (t: TFunction): SelectOption[] =>
  OPEN_STATES.map((value) => ({ value, label: openStateLabel(t, value) }));

export const runStateLabel = (t: TFunction, state: RunState) => t(`monitor:runState.${state}`);
export const runStateOptions = (t: TFunction): SelectOption[] =>
  RUN_STATES.map((value) => ({ value, label: runStateLabel(t, value) }));

const batteryBandLabel = (t: TFunction, band: BatteryBand, scale: BatteryBandScale) =>
  t(`monitor:batteryBand.${band}`, { low: scale.lowBelow, high: scale.highFrom });
/** The battery bands to search by, on the power levels' scale; a band the scale leaves empty is not offered. */
export const batteryBandOptions = (t: TFunction, scale: BatteryBandScale): SelectOption[] =>
  BATTERY_BANDS.filter((band) => band !== 'medium' || scale.lowBelow < scale.highFrom).map((value) => ({
    value,
    label: batteryBandLabel(t, value, scale),
  }));

/** An open door or lock stands out; a closed one reads as the normal case. */
export const OPEN_STATE_COLORS: Record<OpenState, string> = {
  open: 'orange',
  closed: 'green',
  unknown: 'default',
};

export const RUN_STATE_COLORS: Record<RunState, string> = {
  normal: 'green',
  damaged: 'red',
  lowPower: 'orange',
  timeOutNotClosed: 'volcano',
};

export const BATTERY_BAND_COLORS: Record<BatteryBand, string> = {
  low: '#ff4d4f',
  medium: '#faad14',
  high: '#52c41a',
};

const DURATION_UNITS = [
  { unit: 'day', seconds: 86_400 },
  { unit: 'hour', seconds: 3600 },
  { unit: 'minute', seconds: 60 },
  { unit: 'second', seconds: 1 },
] as const;
const SECOND = { unit: 'second', seconds: 1 } as const;

/**
 * How long a device has been offline, in the language's own words, to the largest unit and the one below
 * it: 93 784 s → "1 day, 2 hr" / "1天2小时". Under a minute reads in seconds. Empty without a duration.
 */
export function formatOfflineDuration(seconds: number | null, lang: Lang): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '';
  const whole = Math.floor(seconds);
  const index = DURATION_UNITS.findIndex(({ seconds: size }) => whole >= size);
  const first = DURATION_UNITS[index] ?? SECOND;
  const second = index >= 0 ? DURATION_UNITS[index + 1] : undefined;
  const parts: { unit: string; value: number }[] = [
    { unit: first.unit, value: Math.floor(whole / first.seconds) },
  ];
  const below = second ? Math.floor((whole % first.seconds) / second.seconds) : 0;
  if (second && below > 0) parts.push({ unit: second.unit, value: below });
  return new Intl.ListFormat(lang, { type: 'unit', style: 'narrow' }).format(
    parts.map(({ unit, value }) =>
      new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short' }).format(value),
    ),
  );
}
