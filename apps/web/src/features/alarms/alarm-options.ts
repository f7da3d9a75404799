import {
  ALARM_SEVERITIES,
  type AlarmSeverity,
  CLEAR_MODES,
  CONDITION_TYPES,
  type ConditionType,
  type DevicePropertyRow,
  LOGIC_TYPES,
  PROP_ORIGINS,
  PROP_VALUE_TYPES,
  RULE_TYPES,
} from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { SelectOption } from '../../lib/crud/index.ts';

type T = TFunction<'alarms'>;

/** Options of an enum whose labels live under `<group>.<value>` of the `alarms` namespace. */
const enumOptions = (t: T, group: string, values: readonly string[]): SelectOption[] =>
  values.map((value) => ({ value, label: t(`${group}.${value}`) }));

export const ruleTypeOptions = (t: T) => enumOptions(t, 'ruleType', RULE_TYPES);
export const logicTypeOptions = (t: T) => enumOptions(t, 'logicType', LOGIC_TYPES);
export const severityOptions = (t: T) => enumOptions(t, 'severity', ALARM_SEVERITIES);
export const clearModeOptions = (t: T) => enumOptions(t, 'clearMode', CLEAR_MODES);
export const originOptions = (t: T) => enumOptions(t, 'origin', PROP_ORIGINS);
export const valueTypeOptions = (t: T) => enumOptions(t, 'valueType', PROP_VALUE_TYPES);

/** Conditions read as their signs (=, ≥, >, ≤, <); `allowed` narrows them to a value type's. */
export const conditionOptions = (t: T, allowed: readonly ConditionType[] = CONDITION_TYPES) =>
  enumOptions(t, 'condition', allowed);

/** Most severe in red, least in blue (the order of `ALARM_SEVERITIES`). */
export const SEVERITY_COLORS: Record<AlarmSeverity, string> = {
  critical: 'red',
  major: 'volcano',
  minor: 'gold',
  warning: 'blue',
};

/**
 * A property's name as the reader sees it: the operator's name, or for a known field nobody renamed the
 * text of its `nameKey` (a `namespace:key` of the console's texts), or at last its code.
 */
export function propertyName(t: TFunction, property: Pick<DevicePropertyRow, 'name' | 'nameKey' | 'code'>) {
  if (property.name) return property.name;
  if (property.nameKey) return t(property.nameKey, { defaultValue: property.code });
  return property.code;
}
