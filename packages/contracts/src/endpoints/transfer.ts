import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import type { FeatureSwitch } from '../feature-flags.ts';
import { FILE_KINDS, FILE_TYPES, fileId } from '../files.ts';
import { Permission } from '../permissions.ts';
import { deviceSearch } from './ledger.ts';

/** What can be imported from Excel: operation units, devices, lock codes and keys. */
export const IMPORT_KINDS = ['unit', 'device', 'lockCode', 'key'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const XLSX_MIME = FILE_TYPES.xlsx.mime;
/** Largest workbook accepted, in bytes (the file store's limit of the kind `import`). */
export const IMPORT_MAX_BYTES = FILE_KINDS.import.maxBytes;
/** Most rows one import writes. */
export const IMPORT_MAX_ROWS = 5000;

/** The workbook: an upload of the kind `import` (`/file/upload`), used up by the import. */
const workbook = fileId.describe('Id of the uploaded xlsx file (kind import)');

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
    fileAnswer: true,
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
  fileAnswer: true,
});

export const importUnits = defineEndpoint({
  method: 'POST',
  path: '/unit/import',
  access: Permission.UnitImport,
  module: 'devices',
  summary: 'Import operation units from the Excel template: all rows or none',
  body: z.object({ fileId: workbook }),
  response: importResult,
});

export const importDevices = defineEndpoint({
  method: 'POST',
  path: '/device/import',
  access: Permission.DeviceImport,
  module: 'devices',
  summary: 'Import devices or lock codes from the Excel template: all rows or none',
  body: z.object({ kind: z.enum(['device', 'lockCode']), fileId: workbook }),
  response: importResult,
});

export const importKeys = defineEndpoint({
  method: 'POST',
  path: '/key/import',
  features: ['ShowKeyInfo'],
  access: Permission.KeyImport,
  module: 'devices',
  summary: 'Import keys from the Excel template: all rows or none',
  body: z.object({ fileId: workbook }),
  response: importResult,
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
  fileAnswer: true,
});
