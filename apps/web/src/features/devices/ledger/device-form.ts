import {
  type DeviceCategory,
  type DeviceRow,
  type DeviceTypeNode,
  type deviceForm,
  type FeatureFlagValues,
  FLAGGED_DEVICE_FIELDS,
  type FlaggedFields,
  flagOn,
} from '@uiot/contracts';
import type { z } from 'zod';

export type DeviceFormInput = z.input<typeof deviceForm>;

/** The km, line, track and door fields: shown only with the `ShowKmInfo` flag (spec §6). */
export const KM_FIELDS = FLAGGED_DEVICE_FIELDS.ShowKmInfo;
export type KmField = (typeof KM_FIELDS)[number];

/**
 * The fields of a form that the console does not offer with these flags: those of every flag that is off
 * (spec §6; e.g. FLAGGED_DEVICE_FIELDS: the IoT fields without SupportIoT, "no state" without NoState).
 */
export function hiddenFields<F>(flags: FeatureFlagValues, fields: FlaggedFields<F>): ReadonlySet<string> {
  return new Set(
    Object.entries(fields).flatMap(([flag, names]) =>
      flagOn(flags, flag as keyof typeof fields) ? [] : (names as readonly string[]),
    ),
  );
}

/** Values of a new device (the unit chosen beside the ledger, when one is). */
export function newDeviceValues(unitId?: string): Partial<DeviceFormInput> {
  return {
    ...(unitId ? { unitId } : {}),
    status: 'normal',
    isDrawTool: false,
    noState: false,
    noWorking: false,
  };
}

const coordinateText = (value: number | null) => (value === null ? null : String(value));

/**
 * The dialog values of a ledger row: the form's fields only (names, counts and times are the server's);
 * coordinates as the text typed, so that their decimals are checked as written (spec §5).
 */
export function deviceToForm(row: DeviceRow): Partial<DeviceFormInput> {
  return {
    name: row.name,
    imei: row.imei,
    imsi: row.imsi,
    typeId: row.typeId,
    category: row.category,
    iotType: row.iotType,
    unitId: row.unitId,
    code: row.code,
    sbbh: row.sbbh,
    adCode: row.adCode,
    bayId: row.bayId,
    lng: coordinateText(row.lng),
    lat: coordinateText(row.lat),
    isDrawTool: row.isDrawTool,
    status: row.status,
    voltage: row.voltage,
    deptId: row.deptId,
    staffId: row.staffId,
    desc: row.desc,
    extra1: row.extra1,
    extra2: row.extra2,
    graphId: row.graphId,
    idxNo: row.idxNo,
    appKey: row.appKey,
    netType: row.netType,
    noState: row.noState,
    noWorking: row.noWorking,
    addr: row.addr,
    secondId: row.secondId,
    kmInfo: row.kmInfo,
    line: row.line,
    track: row.track,
    door: row.door,
    appEUI: row.appEUI,
    devEUI: row.devEUI,
    productId: row.productId,
    platName: row.platName,
  };
}

/**
 * The body saved: the hidden fields (`hiddenFields`) keep what the record has, or stay empty for a new one:
 * an edit does not clear values the user cannot see, and the server refuses a change of them.
 */
export function keepHidden<F extends object>(
  values: F,
  row: Partial<Record<keyof F, unknown>> | null,
  hidden: ReadonlySet<string>,
): F {
  const kept = Object.entries(values).flatMap(([field, value]) => {
    if (!hidden.has(field)) return [];
    const empty = typeof value === 'boolean' ? false : null;
    return [[field, row ? (row[field as keyof F] ?? empty) : empty]];
  });
  return { ...values, ...Object.fromEntries(kept) };
}

/** The category of a device type (the form's category follows the chosen type). */
export function typeCategory(nodes: readonly DeviceTypeNode[], typeId: string | null | undefined) {
  if (!typeId) return null;
  const find = (list: readonly DeviceTypeNode[]): DeviceCategory | null => {
    for (const node of list) {
      if (node.id === typeId) return node.category;
      const below = find(node.children);
      if (below) return below;
    }
    return null;
  };
  return find(nodes);
}
