import { MASTER_PROPERTIES, type PropOrigin, type PropValueType } from '@uiot/contracts';
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

/** What the console shows of each: names and units; types and values are the contracts' (MASTER_PROPERTIES). */
const catalogue: {
  [code in MasterPropertyCode]: Omit<KnownProperty, 'code' | 'origin' | 'valueType' | 'values'>;
} = {
  lockState: { nameKey: 'monitor:runtime.column.lockState', unit: null, valuesKey: 'monitor:openState' },
  doorState: { nameKey: 'monitor:runtime.column.doorState', unit: null, valuesKey: 'monitor:openState' },
  battery: { nameKey: 'monitor:runtime.column.battery', unit: '%', valuesKey: null },
  rssi: { nameKey: 'monitor:runtime.column.rssi', unit: 'dBm', valuesKey: null },
  runState: { nameKey: 'monitor:runtime.column.runState', unit: null, valuesKey: 'monitor:runState' },
  online: { nameKey: 'monitor:runtime.column.online', unit: null, valuesKey: null },
};

/**
 * The seed of every device type's property catalogue: the protocol's known fields. Typed over every code
 * of MasterProperties, so a field added to the snapshot cannot be forgotten here.
 */
export const knownMasterProperties: readonly KnownProperty[] = Object.entries(catalogue).map(
  ([code, entry]) => ({
    code: code as MasterPropertyCode,
    origin: 'Master',
    ...entry,
    ...MASTER_PROPERTIES[code as MasterPropertyCode],
  }),
);

export function isMasterPropertyCode(code: string): code is MasterPropertyCode {
  return Object.hasOwn(catalogue, code);
}
