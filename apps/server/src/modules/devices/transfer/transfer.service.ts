import { PassThrough } from 'node:stream';
import {
  type DeviceSearch,
  type FeatureFlagValues,
  FLAGGED_DEVICE_FIELDS,
  flagOn,
  IMPORT_MAX_ROWS,
  type ImportKind,
  type Lang,
  PAGE_SIZE_DEFAULT,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../../db/client.ts';
import { lockForTransaction } from '../../../db/locks.ts';
import { AppError } from '../../../http/app-error.ts';
import { featureDisabled } from '../../../http/feature-gate.ts';
import { DEFAULT_STATION } from '../../../lib/station.ts';
import type { ParamService } from '../../params/index.ts';
import { flaggedFieldRefusal } from '../ledger-rules.ts';
import { UNIT_TREE_LOCK } from '../unit.service.ts';
import { sheetTime } from './import-cells.ts';
import { parseDeviceRows, resolveDeviceRows } from './import-devices.ts';
import { parseKeyRows, resolveKeyRows } from './import-keys.ts';
import { parseLockCodeRows, resolveLockCodeRows } from './import-lock-codes.ts';
import {
  distinctKeys,
  HEADER_ROW,
  importErrors,
  missingColumnIssues,
  nameKey,
  nulCellIssues,
  type ParsedRows,
  type PeopleRefs,
  type ResolvedRows,
  type RowIssue,
  type SheetRow,
} from './import-rows.ts';
import { IMPORT_COLUMNS } from './import-sheets.ts';
import { importTemplate } from './import-template.ts';
import { parseUnitRows, resolveUnitRows, siblingKey } from './import-units.ts';
import { type LedgerRecord, ledgerBatches, ledgerOrder } from './ledger-export.repository.ts';
import { LEDGER_FILE_NAME, writeLedger } from './ledger-export.ts';
import {
  devicesByCodeOrName,
  insertDevices,
  insertKeys,
  insertLockCodes,
  insertUnits,
  listUnitNodes,
  peopleByName,
  takenDeviceIdentifiers,
  takenKeyCodes,
  takenRfids,
  typesByCode,
} from './transfer.repository.ts';
import { unitPaths, unitsByPath } from './unit-paths.ts';
import { readImportSheet } from './workbook-reader.ts';
import { type XlsxFile, xlsxFileNames } from './xlsx-file.ts';

export interface LedgerExportQuery extends DeviceSearch {
  sort?: string | undefined;
  ascending?: boolean | undefined;
  pageIndex?: number | undefined;
  pageSize?: number | undefined;
}

export interface TransferOptions {
  /** Rows read per query while an export streams. */
  exportBatchSize?: number;
  /** The installation's station, given to imported units. */
  stationId?: string;
}

/**
 * One kind of import: its rows read against its form, looked up in the database (only what the rows name),
 * checked against what was found, and written.
 */
interface ImportFlow<P, R, N> {
  /** The lock the transaction takes, for the kinds that write into the unit tree. */
  lock?: string;
  parse(rows: readonly SheetRow[]): ParsedRows<P>;
  /** Refuses the whole import for what its rows hold, before the database is asked (a feature flag). */
  check?(parsed: readonly P[]): void;
  lookUp(tx: Db, parsed: readonly P[]): Promise<R>;
  resolve(parsed: readonly P[], refs: R): ResolvedRows<N>;
  write(tx: Db, accepted: readonly N[]): Promise<void>;
}

/** The departments and staff members rows name, by name. */
function peopleNamedIn(
  db: Db,
  parsed: readonly { deptName: string; staffName: string }[],
): Promise<PeopleRefs> {
  const names = (nameOf: (p: (typeof parsed)[number]) => string) => distinctKeys(parsed.map(nameOf), nameKey);
  return peopleByName(
    db,
    names((p) => p.deptName),
    names((p) => p.staffName),
  );
}

/** A write that lost a race to a concurrent one (a value just taken, a row just deleted). */
function isConflict(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23505' || code === '23503') return true;
  }
  return false;
}

async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  for (let next = first; !next.done; next = await rest.next()) yield next.value;
}

/**
 * Excel templates, imports (every row checked, all written in one transaction or none) and the export
 * of the ledger.
 */
export class TransferService {
  private readonly exportBatchSize: number;
  private readonly stationId: string;

  constructor(
    private readonly db: Db,
    private readonly params: Pick<ParamService, 'getValues'>,
    options: TransferOptions = {},
  ) {
    this.exportBatchSize = options.exportBatchSize ?? 1000;
    this.stationId = options.stationId ?? DEFAULT_STATION.id;
  }

  template(kind: ImportKind, lang: Lang): Promise<XlsxFile> {
    return importTemplate(kind, lang);
  }

  importUnits(file: Buffer, lang: Lang): Promise<{ imported: number }> {
    return this.runImport('unit', file, lang, {
      lock: UNIT_TREE_LOCK,
      parse: parseUnitRows,
      lookUp: async (tx) => {
        const units = await listUnitNodes(tx);
        return {
          paths: unitsByPath(units),
          siblingNames: new Set(units.map((u) => siblingKey(u.parentId, u.name))),
        };
      },
      resolve: (parsed, refs) => resolveUnitRows(parsed, refs, () => crypto.randomUUID()),
      write: (tx, units) => insertUnits(tx, units, this.stationId),
    });
  }

  /**
   * Devices, or lock codes (SupportRfid). A device row that fills a field of a feature flag that is off
   * (spec §6: the IoT fields without SupportIoT, km fields without ShowKmInfo) refuses the import with
   * FeatureDisabled naming the flag, as the device dialog's save does.
   */
  async importDevices(kind: 'device' | 'lockCode', file: Buffer, lang: Lang): Promise<{ imported: number }> {
    const flags = await this.params.getValues([...Object.keys(FLAGGED_DEVICE_FIELDS), 'SupportRfid']);
    if (kind === 'device') return this.importLedgerDevices(file, lang, flags);
    if (!flagOn(flags, 'SupportRfid')) throw featureDisabled('SupportRfid');
    return this.importLockCodes(file, lang);
  }

  private importLedgerDevices(
    file: Buffer,
    lang: Lang,
    flags: FeatureFlagValues,
  ): Promise<{ imported: number }> {
    return this.runImport('device', file, lang, {
      lock: UNIT_TREE_LOCK,
      parse: parseDeviceRows,
      check: (parsed) => {
        for (const { form } of parsed) {
          const flag = form && flaggedFieldRefusal(flags, FLAGGED_DEVICE_FIELDS, null, form);
          if (flag) throw featureDisabled(flag);
        }
      },
      lookUp: async (tx, parsed) => ({
        units: unitsByPath(await listUnitNodes(tx)),
        types: await typesByCode(tx, distinctKeys(parsed.map((p) => p.typeCode))),
        ...(await peopleNamedIn(tx, parsed)),
        taken: await takenDeviceIdentifiers(tx, {
          code: distinctKeys(parsed.map((p) => p.code ?? '')),
          imei: distinctKeys(parsed.map((p) => p.imei ?? '')),
          devEUI: distinctKeys(parsed.map((p) => p.devEUI ?? '')),
        }),
      }),
      resolve: resolveDeviceRows,
      write: insertDevices,
    });
  }

  private importLockCodes(file: Buffer, lang: Lang): Promise<{ imported: number }> {
    return this.runImport('lockCode', file, lang, {
      parse: parseLockCodeRows,
      lookUp: async (tx, parsed) => ({
        ...(await devicesByCodeOrName(tx, distinctKeys(parsed.map((p) => p.device)))),
        takenRfids: await takenRfids(tx, distinctKeys(parsed.map((p) => p.rfid ?? ''))),
      }),
      resolve: resolveLockCodeRows,
      write: insertLockCodes,
    });
  }

  importKeys(file: Buffer, lang: Lang): Promise<{ imported: number }> {
    return this.runImport('key', file, lang, {
      parse: parseKeyRows,
      lookUp: async (tx, parsed) => ({
        ...(await peopleNamedIn(tx, parsed)),
        takenCodes: await takenKeyCodes(tx, distinctKeys(parsed.map((p) => p.code ?? ''))),
      }),
      resolve: resolveKeyRows,
      write: insertKeys,
    });
  }

  /**
   * The steps every import shares: read the sheet, check the header and the row count, check every row
   * against its form, then, in one transaction, against the database and write everything, or refuse with
   * every problem found (1140) and write nothing. A write that loses a race with a concurrent one is
   * checked again, which then names the row.
   */
  private async runImport<P, R, N>(
    kind: ImportKind,
    file: Buffer,
    lang: Lang,
    flow: ImportFlow<P, R, N>,
  ): Promise<{ imported: number }> {
    const columns = IMPORT_COLUMNS[kind];
    const refuse = (issues: RowIssue[]) => {
      const errors = importErrors(issues, columns, lang);
      return new AppError(ResultCode.ImportInvalid, { params: { count: errors.length }, data: errors });
    };

    const sheet = await readImportSheet(file, columns, IMPORT_MAX_ROWS);
    const shape = missingColumnIssues(columns, sheet.found);
    if (sheet.excessRow !== null) {
      shape.push({
        row: sheet.excessRow,
        column: null,
        key: 'import.tooManyRows',
        params: { max: IMPORT_MAX_ROWS },
      });
    } else if (sheet.rows.length === 0) {
      shape.push({ row: HEADER_ROW + 1, column: null, key: 'import.noRows' });
    }
    if (shape.length > 0) throw refuse(shape);
    const nul = nulCellIssues(sheet.rows);
    if (nul.length > 0) throw refuse(nul);

    const read = flow.parse(sheet.rows);
    flow.check?.(read.parsed);
    const attempt = () =>
      this.db.transaction(async (tx) => {
        if (flow.lock) await lockForTransaction(tx, flow.lock);
        const resolved = flow.resolve(read.parsed, await flow.lookUp(tx, read.parsed));
        const issues = [...read.issues, ...resolved.issues];
        if (issues.length > 0) throw refuse(issues);
        await flow.write(tx, resolved.accepted);
        return { imported: resolved.accepted.length };
      });
    try {
      return await attempt();
    } catch (error) {
      if (isConflict(error)) return await attempt();
      throw error;
    }
  }

  /**
   * The ledger as an xlsx file, streamed: a page when `pageIndex` or `pageSize` is given, else every
   * matching device, read chunk by chunk. The first chunk is read before the answer starts, so a failing
   * query still answers with an error envelope.
   */
  async exportLedger(query: LedgerExportQuery, lang: Lang): Promise<XlsxFile> {
    const order = ledgerOrder(query.sort, query.ascending);
    const paged = query.pageIndex !== undefined || query.pageSize !== undefined;
    const page = paged
      ? { index: query.pageIndex ?? 1, size: query.pageSize ?? PAGE_SIZE_DEFAULT }
      : undefined;
    const paths = unitPaths(await listUnitNodes(this.db));
    const batches = ledgerBatches(this.db, query, order, { page, batchSize: this.exportBatchSize });
    const first = await batches.next();

    const out = new PassThrough();
    const rows: AsyncIterable<LedgerRecord[]> = startingWith(first, batches);
    writeLedger(out, lang, paths, rows).catch((error: unknown) => out.destroy(error as Error));
    const stamp = sheetTime(new Date())
      .replace(/\D/g, '')
      .replace(/^(\d{8})/, '$1-');
    return { ...xlsxFileNames(LEDGER_FILE_NAME, lang, `_${stamp}`), content: out };
  }
}
