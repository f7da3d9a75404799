import {
  DEVICE_CATEGORIES,
  type DeviceCategory,
  type DeviceForm,
  deviceForm,
  IOT_TYPES,
  NET_TYPES,
} from '@uiot/contracts';
import { numberOrText } from './import-cells.ts';
import {
  cellOf,
  FirstRows,
  fieldValue,
  listCell,
  nameKey,
  type ParsedRows,
  type PeopleRefs,
  type ResolvedRows,
  type RowIssue,
  resolvePeople,
  type SheetRow,
  schemaIssues,
  textOf,
  uniqueIssue,
} from './import-rows.ts';
import { DEVICE_COLUMNS } from './import-sheets.ts';
import { normalisePath } from './unit-paths.ts';

/** A device row read against the device form: the form when it passes, and the names it refers to. */
export interface ParsedDevice {
  row: number;
  form: DeviceForm | undefined;
  /** Normalised unit path. */
  unitPath: string;
  /** Device type code, lower-cased (codes are unique ignoring case). */
  typeCode: string;
  deptName: string;
  staffName: string;
  /** The identifiers unique over the ledger, when their format is right. */
  code: string | null | undefined;
  imei: string | null | undefined;
  devEUI: string | null | undefined;
}

const deviceColumnKeys = new Set(DEVICE_COLUMNS.map((c) => c.key));
const fieldColumns: Record<string, string> = { unitId: 'unitPath', typeId: 'typeCode' };
const deviceColumnOf = (field: string) => fieldColumns[field] ?? (deviceColumnKeys.has(field) ? field : null);

const TEXT_FIELDS = [
  'code',
  'imei',
  'imsi',
  'addr',
  'desc',
  'devEUI',
  'appEUI',
  'kmInfo',
  'line',
  'track',
  'door',
];

/**
 * Every row through the device form, so each format rule of the form applies. The unit, the type, the
 * department and the staff member are names here, resolved against the database afterwards.
 */
export function parseDeviceRows(rows: readonly SheetRow[]): ParsedRows<ParsedDevice> {
  const parsed: ParsedDevice[] = [];
  const issues: RowIssue[] = [];
  for (const row of rows) {
    const lists = {
      iotType: listCell(row, 'iotType', IOT_TYPES),
      netType: listCell(row, 'netType', NET_TYPES),
      category: listCell(row, 'category', DEVICE_CATEGORIES),
    };
    const input: Record<string, unknown> = {
      name: textOf(row, 'name'),
      // The form asks for the ids; whether the names exist is checked against the database.
      unitId: textOf(row, 'unitPath') === '' ? '' : 'unit',
      typeId: textOf(row, 'typeCode') === '' ? '' : 'type',
      lng: numberOrText(cellOf(row, 'lng')),
      lat: numberOrText(cellOf(row, 'lat')),
      iotType: lists.iotType.value,
      netType: lists.netType.value,
      category: lists.category.value,
      deptId: null,
      staffId: null,
    };
    for (const field of TEXT_FIELDS) input[field] = textOf(row, field);

    const result = deviceForm.safeParse(input);
    if (!result.success) issues.push(...schemaIssues(row.row, result.error, deviceColumnOf));
    for (const list of Object.values(lists)) if (list.issue) issues.push(list.issue);
    parsed.push({
      row: row.row,
      form: result.success ? result.data : undefined,
      unitPath: normalisePath(textOf(row, 'unitPath')),
      typeCode: nameKey(textOf(row, 'typeCode')),
      deptName: textOf(row, 'deptName'),
      staffName: textOf(row, 'staffName'),
      code: fieldValue(deviceForm.shape.code, input.code),
      imei: fieldValue(deviceForm.shape.imei, input.imei),
      devEUI: fieldValue(deviceForm.shape.devEUI, input.devEUI),
    });
  }
  return { parsed, issues };
}

/** What the database knows for a device file. */
export interface DeviceRefs extends PeopleRefs {
  /** Units by normalised path. */
  units: ReadonlyMap<string, { id: string; stationId: string }>;
  /** Device types by lower-cased code. */
  types: ReadonlyMap<string, { id: string; category: DeviceCategory }>;
  /** Identifiers already used by a device (main or attached). */
  taken: { code: ReadonlySet<string>; imei: ReadonlySet<string>; devEUI: ReadonlySet<string> };
}

/** A device ready to be written: the form and what its names resolved to. */
export interface NewDevice {
  form: DeviceForm;
  unitId: string;
  stationId: string;
  typeId: string;
  /** The form's category, else the type's. */
  category: DeviceCategory;
  deptId: string | null;
  staffId: string | null;
}

/**
 * The names of every row looked up, and the identifiers checked against the ledger and the rows before.
 * The devices come back only when no row has a problem.
 */
export function resolveDeviceRows(
  parsed: readonly ParsedDevice[],
  refs: DeviceRefs,
): ResolvedRows<NewDevice> {
  const issues: RowIssue[] = [];
  const accepted: NewDevice[] = [];
  const firstRows = { code: new FirstRows(), imei: new FirstRows(), devEUI: new FirstRows() };
  for (const p of parsed) {
    const rowIssues: RowIssue[] = [];
    const unit = p.unitPath === '' ? undefined : refs.units.get(p.unitPath);
    if (p.unitPath !== '' && !unit)
      rowIssues.push({ row: p.row, column: 'unitPath', key: 'import.unitNotFound' });
    const type = p.typeCode === '' ? undefined : refs.types.get(p.typeCode);
    if (p.typeCode !== '' && !type)
      rowIssues.push({ row: p.row, column: 'typeCode', key: 'import.typeNotFound' });
    const people = resolvePeople(refs, p.row, p);
    rowIssues.push(...people.issues);
    for (const field of ['code', 'imei', 'devEUI'] as const) {
      const issue = uniqueIssue(p.row, field, p[field], refs.taken[field], firstRows[field]);
      if (issue) rowIssues.push(issue);
    }
    issues.push(...rowIssues);
    if (rowIssues.length === 0 && p.form && unit && type) {
      accepted.push({
        form: p.form,
        unitId: unit.id,
        stationId: unit.stationId,
        typeId: type.id,
        category: p.form.category ?? type.category,
        deptId: people.deptId,
        staffId: people.staffId,
      });
    }
  }
  return { issues, accepted };
}
