import type { PropValueType } from '@uiot/contracts';

/** A field every lock reports through the protocol (packages/device-protocol DeviceReport), and online. */
export interface KnownProperty {
  code: string;
  /** The English name kept in the catalogue; the console shows the field's translated name. */
  name: string;
  valueType: PropValueType;
  unit: string | null;
}

/**
 * The Master properties of every device type: what the protocol's reports and the runtime data carry. They
 * seed each type's catalogue; their codes and types are fixed, names and units editable.
 */
export const KNOWN_MASTER_PROPERTIES: readonly KnownProperty[] = [
  { code: 'lockState', name: 'Lock state', valueType: 'string', unit: null },
  { code: 'doorState', name: 'Door state', valueType: 'string', unit: null },
  { code: 'battery', name: 'Battery', valueType: 'number', unit: '%' },
  { code: 'rssi', name: 'Signal strength', valueType: 'number', unit: 'dBm' },
  { code: 'runState', name: 'Run state', valueType: 'string', unit: null },
  { code: 'online', name: 'Online', valueType: 'boolean', unit: null },
];

export function isKnownMasterProperty(code: string): boolean {
  return KNOWN_MASTER_PROPERTIES.some((p) => p.code === code);
}
