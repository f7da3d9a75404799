import type { ConditionType, LogicType, RuleItemForm } from '@uiot/contracts';
import type { ExtensionProps } from '@uiot/device-protocol';
import { isMasterPropertyCode, type MasterProperties } from './known-properties.ts';

/**
 * The warn-rule evaluator (spec §3 Warn rule, Rule item): whether a device's latest properties meet a
 * rule's items. Three answers, not two: a property the device has not reported yet, or reported with
 * another type than the rule expects, is `unknown`, so that a silent device neither raises an alarm nor
 * clears one.
 */
export type Verdict = 'holds' | 'fails' | 'unknown';

/** The latest value of every property of one device: its own (Master) and its attached devices' (Extension). */
export interface PropertySnapshot {
  master: MasterProperties;
  extension: ExtensionProps;
}

/** What one committed report (a batch's messages of one device, folded) said, field by field. */
export interface ReportedValues {
  lockState?: MasterProperties['lockState'];
  doorState?: MasterProperties['doorState'];
  battery?: number;
  rssi?: number;
  props?: ExtensionProps;
}

/**
 * The properties as of a report: what it said, over what is stored for what it did not say (extension
 * properties key by key); a device that reports is online. A report is evaluated with its own values even
 * when a later one has been stored meanwhile, so that a condition one report meets (a battery at 5 % between
 * two at 80 %) raises its alarm instead of being read over.
 */
export function asReported(stored: PropertySnapshot, reported: ReportedValues): PropertySnapshot {
  const master: MasterProperties = { ...stored.master, online: true };
  if (reported.lockState !== undefined) master.lockState = reported.lockState;
  if (reported.doorState !== undefined) master.doorState = reported.doorState;
  if (reported.battery !== undefined) master.battery = reported.battery;
  if (reported.rssi !== undefined) master.rssi = reported.rssi;
  return {
    master,
    extension: reported.props ? { ...stored.extension, ...reported.props } : stored.extension,
  };
}

/** What the evaluator reads of a rule item. */
export type EvaluatedItem = Pick<
  RuleItemForm,
  'propCode' | 'propOrigin' | 'propVal' | 'valType' | 'conditionType'
>;

type Reported = string | number | boolean | undefined;

/** The reported value an item names; own properties only, so `constructor` is not a value. */
function reportedValue(item: EvaluatedItem, snapshot: PropertySnapshot): Reported {
  if (item.propOrigin === 'Master') {
    return isMasterPropertyCode(item.propCode) ? snapshot.master[item.propCode] : undefined;
  }
  return Object.hasOwn(snapshot.extension, item.propCode) ? snapshot.extension[item.propCode] : undefined;
}

const verdict = (holds: boolean): Verdict => (holds ? 'holds' : 'fails');

const ORDER: Record<ConditionType, (reported: number, expected: number) => boolean> = {
  Eq: (a, b) => a === b,
  Ge: (a, b) => a >= b,
  Gt: (a, b) => a > b,
  Le: (a, b) => a <= b,
  Lt: (a, b) => a < b,
};

function compareNumber(reported: Reported, item: EvaluatedItem): Verdict {
  const expected = item.propVal.trim() === '' ? Number.NaN : Number(item.propVal);
  if (typeof reported !== 'number' || !Number.isFinite(reported) || !Number.isFinite(expected))
    return 'unknown';
  return verdict(ORDER[item.conditionType](reported, expected));
}

/** A boolean as reported: devices that only send text send `'true'` / `'false'`. */
function asBoolean(value: Reported): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function compareBoolean(reported: Reported, item: EvaluatedItem): Verdict {
  const actual = asBoolean(reported);
  const expected = asBoolean(item.propVal);
  if (item.conditionType !== 'Eq' || actual === undefined || expected === undefined) return 'unknown';
  return verdict(actual === expected);
}

function compareString(reported: Reported, item: EvaluatedItem): Verdict {
  if (item.conditionType !== 'Eq' || typeof reported !== 'string') return 'unknown';
  return verdict(reported === item.propVal);
}

/**
 * One item against the snapshot. Order applies to numbers only (CONDITIONS_OF_VALUE_TYPE); an item that
 * slipped past the form with another condition, or a propVal that does not read as its type, is unknown
 * rather than a guess.
 */
export function evaluateItem(item: EvaluatedItem, snapshot: PropertySnapshot): Verdict {
  const reported = reportedValue(item, snapshot);
  if (reported === undefined) return 'unknown';
  if (item.valType === 'number') return compareNumber(reported, item);
  if (item.valType === 'boolean') return compareBoolean(reported, item);
  return compareString(reported, item);
}

/**
 * Items combined by the rule's logicType, in three-valued logic: AND fails as soon as one item fails and
 * holds only when every item holds; OR holds as soon as one item holds and fails only when every item
 * fails; anything else is unknown. No items is unknown: a rule with nothing to check must never raise.
 */
export function evaluateItems(
  items: readonly EvaluatedItem[],
  logicType: LogicType,
  snapshot: PropertySnapshot,
): Verdict {
  if (items.length === 0) return 'unknown';
  const verdicts = items.map((item) => evaluateItem(item, snapshot));
  const decisive: Verdict = logicType === 'AND' ? 'fails' : 'holds';
  if (verdicts.includes(decisive)) return decisive;
  if (verdicts.includes('unknown')) return 'unknown';
  return logicType === 'AND' ? 'holds' : 'fails';
}
