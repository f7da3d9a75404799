import { OPEN_STATES, type PropOrigin, type PropValueType, RUN_STATES } from '@uiot/contracts';
import type { DoorState, LockState, RunState } from '@uiot/device-protocol';

/**
 * The properties every lock reports itself (propOrigin Master, spec §3 Rule item), by the codes warn rules
 * name them with. They are the runtime data of spec §3 that the protocol carries (DeviceReport) plus the
 * online flag the server keeps; a property is absent until the device has reported it.
 */
export interface MasterProperties {
  lockState?: LockState;
  doorState?: DoorState;
  /** Battery charge, 0–100 %. */
  battery?: number;
  /** Received signal strength, dBm. */
  rssi?: number;
  runState?: RunState;
  online?: boolean;
}

export type MasterPropertyCode = keyof MasterProperties;

/** A catalogue entry: what the rule editor offers for a property before an operator edits the catalogue. */
export interface KnownProperty {
  code: MasterPropertyCode;
  /** i18n key of the property's name (the runtime monitor's column, so both say the same). */
  nameKey: string;
  valueType: PropValueType;
  unit: string | null;
  origin: PropOrigin;
  /** The values a text property takes, for the editor to offer as choices. */
  values: readonly string[] | null;
  /** i18n key prefix of those values' names (`<prefix>.<value>`, the runtime monitor's words). */
  valuesKey: string | null;
}

/** Lock and door report open or closed; `unknown` is the console's word for "not reported yet". */
const REPORTED_OPEN_STATES = OPEN_STATES.filter((state) => state !== 'unknown');

const catalogue: { [code in MasterPropertyCode]: Omit<KnownProperty, 'code' | 'origin'> } = {
  lockState: {
    nameKey: 'monitor:runtime.column.lockState',
    valueType: 'string',
    unit: null,
    values: REPORTED_OPEN_STATES,
    valuesKey: 'monitor:openState',
  },
  doorState: {
    nameKey: 'monitor:runtime.column.doorState',
    valueType: 'string',
    unit: null,
    values: REPORTED_OPEN_STATES,
    valuesKey: 'monitor:openState',
  },
  battery: {
    nameKey: 'monitor:runtime.column.battery',
    valueType: 'number',
    unit: '%',
    values: null,
    valuesKey: null,
  },
  rssi: {
    nameKey: 'monitor:runtime.column.rssi',
    valueType: 'number',
    unit: 'dBm',
    values: null,
    valuesKey: null,
  },
  runState: {
    nameKey: 'monitor:runtime.column.runState',
    valueType: 'string',
    unit: null,
    values: RUN_STATES,
    valuesKey: 'monitor:runState',
  },
  online: {
    nameKey: 'monitor:runtime.column.online',
    valueType: 'boolean',
    unit: null,
    values: null,
    valuesKey: null,
  },
};

/**
 * The seed of every device type's property catalogue: the protocol's known fields. Typed over every code
 * of MasterProperties, so a field added to the snapshot cannot be forgotten here.
 */
export const knownMasterProperties: readonly KnownProperty[] = Object.entries(catalogue).map(
  ([code, entry]) => ({ code: code as MasterPropertyCode, origin: 'Master', ...entry }),
);

export function isMasterPropertyCode(code: string): code is MasterPropertyCode {
  return Object.hasOwn(catalogue, code);
}
