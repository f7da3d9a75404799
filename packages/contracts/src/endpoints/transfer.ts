import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import type { FeatureSwitch } from '../feature-flags.ts';
import { Permission } from '../permissions.ts';
import { deviceSearch } from './ledger.ts';

/** What can be imported from Excel: operation units, devices, lock codes and keys. */
export const IMPORT_KINDS = ['unit', 'device', 'lockCode', 'key'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Largest workbook accepted, in bytes (before base64). */
export const IMPORT_MAX_BYTES = 700 * 1024;
/** Most rows one import writes. */
export const IMPORT_MAX_ROWS = 5000;

/** The workbook as a base64 text (optionally a data URL), sent in a JSON body. */
const workbook = z
  .string({ error: 'v.required' })
  .min(1, { error: 'v.required' })
  .max(Math.ceil((IMPORT_MAX_BYTES * 4) / 3) + 100, { error: 'v.fileTooLarge' })
  .describe('The xlsx file in base64, or as a data URL');

/** A problem of one cell (or of a whole row when `column` is null): 1-based row as Excel shows it. */
export const importError = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importError>;

/** An import either writes every row (`imported`) or nothing; a refused one answers code 1140 with the errors. */
export const importResult = z.object({ imported: z.number().int() });

const templateOf = (
  path: string,
  access: (typeof Permission)[keyof typeof Permission],
  what: string,
  features?: readonly FeatureSwitch[],
) =>
  defineEndpoint({
    method: 'GET',
    path,
    access,
    module: 'devices',
    summary: `Excel template for importing ${what} (xlsx file)`,
    response: z.string(),
    mutating: false,
    ...(features ? { features } : {}),
  });

export const unitImportTemplate = templateOf(
  '/unit/importTemplate',
  Permission.UnitImport,
  'operation units',
);
export const keyImportTemplate = templateOf('/key/importTemplate', Permission.KeyImport, 'keys', [
  'ShowKeyInfo',
]);

export const deviceImportTemplate = defineEndpoint({
  method: 'GET',
  path: '/device/importTemplate',
  access: Permission.DeviceImport,
  module: 'devices',
  summary: 'Excel template for importing devices or lock codes (xlsx file)',
  query: z.object({ kind: z.enum(['device', 'lockCode']) }),
  response: z.string(),
  mutating: false,
});

export const importUnits = defineEndpoint({
  method: 'POST',
  path: '/unit/import',
  access: Permission.UnitImport,
  module: 'devices',
  summary: 'Import operation units from the Excel template: all rows or none',
  body: z.object({ file: workbook }),
  response: importResult,
  secretFields: ['file'],
});

export const importDevices = defineEndpoint({
  method: 'POST',
  path: '/device/import',
  access: Permission.DeviceImport,
  module: 'devices',
  summary: 'Import devices or lock codes from the Excel template: all rows or none',
  body: z.object({ kind: z.enum(['device', 'lockCode']), file: workbook }),
  response: importResult,
  secretFields: ['file'],
});

export const importKeys = defineEndpoint({
  method: 'POST',
  path: '/key/import',
  features: ['ShowKeyInfo'],
  access: Permission.KeyImport,
  module: 'devices',
  summary: 'Import keys from the Excel template: all rows or none',
  body: z.object({ file: workbook }),
  response: importResult,
  secretFields: ['file'],
});

/**
 * Export of the ledger as xlsx: with `pageIndex`/`pageSize` that page, without them every device matching
 * the search (streamed, so large ledgers do not sit in memory).
 */
export const exportDevices = defineEndpoint({
  method: 'GET',
  path: '/device/export',
  access: Permission.DeviceExport,
  module: 'devices',
  summary: 'The ledger (a page or every matching device) as an Excel file',
  query: deviceSearch.extend({
    sort: z.string().max(64).optional(),
    ascending: z
      .union([z.boolean(), z.enum(['true', 'false'])], { error: 'v.invalid' })
      .transform((v) => v === true || v === 'true')
      .optional(),
    pageIndex: z.coerce.number().int().min(1).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).optional(),
  }),
  response: z.string(),
  mutating: false,
});
