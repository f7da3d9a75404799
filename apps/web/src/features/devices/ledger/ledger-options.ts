import {
  IOT_TYPES,
  type IotType,
  NET_TYPES,
  type NetType,
  type OpenState,
  RUN_STATES,
  type RunState,
} from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { SelectOption } from '../../../lib/crud/index.ts';

type T = TFunction<'ledger'>;

/**
 * Labels and choices of the ledger's enumerations (spec §3 Device, §4 states); device categories are read
 * as the device types page has them (`deviceCategoryLabel` of `device-type-tree.ts`).
 */
export const iotTypeLabel = (t: T, value: IotType | null) => (value ? t(`iotType.${value}`) : '');
export const iotTypeOptions = (t: T): SelectOption[] =>
  IOT_TYPES.map((value) => ({ value, label: iotTypeLabel(t, value) }));

export const netTypeLabel = (t: T, value: NetType | null) => (value ? t(`netType.${value}`) : '');
export const netTypeOptions = (t: T): SelectOption[] =>
  NET_TYPES.map((value) => ({ value, label: netTypeLabel(t, value) }));

export const runStateLabel = (t: T, value: RunState) => t(`status.${value}`);
export const runStateOptions = (t: T): SelectOption[] =>
  RUN_STATES.map((value) => ({ value, label: runStateLabel(t, value) }));
export const RUN_STATE_COLORS: Record<RunState, string> = {
  normal: 'green',
  damaged: 'red',
  lowPower: 'orange',
  timeOutNotClosed: 'volcano',
};

export const lockStatusLabel = (t: T, value: OpenState) => t(`lockStatus.${value}`);

export const registLabel = (t: T, regist: boolean) =>
  regist ? t('ledger:regist.registered') : t('ledger:regist.unregistered');
/** The registered search: sent as text, as the query reads it. */
export const registOptions = (t: T): SelectOption[] => [
  { value: 'true', label: registLabel(t, true) },
  { value: 'false', label: registLabel(t, false) },
];

/** antd Select options of choices (the ledger's values are all text). */
export const selectOptions = (options: readonly SelectOption[]) =>
  options.map((option) => ({ value: String(option.value), label: option.label }));
