import { ResultCode } from '@uiot/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastWarning } from '../feedback/feedback.ts';
import { toastFailed } from '../feedback/outcome.ts';
import { safeFileName, saveBlob } from '../file/save-file.ts';
import { isRequestError, requestClient } from '../request/index.ts';
import { type CellLabels, rowsToCsv } from './cells.ts';
import { CSV_MIME } from './csv.ts';
import { exportPages, PAGE_SIZES, type Query, readPage } from './page-query.ts';
import type { CallOptions, CrudColumn, CrudExport, PagedEndpoint } from './types.ts';

/** The API serves at most this many rows a page: "export all" without an export endpoint pages by it. */
const EXPORT_PAGE_SIZE = Math.max(...PAGE_SIZES);
/** Most rows "export all" collects in the browser (the server's own export limit, EXPORT_MAX_ROWS). */
const EXPORT_MAX_ROWS = 100_000;
const SILENT: CallOptions = { silent: true, canCancel: false };

class ExportTooLarge extends Error {}

/**
 * Export of the current page (CSV of the visible columns, made in the browser) and of everything: the
 * page's export endpoint when it has one (a CSV file is saved as it comes), else every page of the query
 * (spec §7: page 1 with pageSize = total). Code 1060 shows 'export data too large, please filter'.
 */
export function useCrudExport<Row>({
  title,
  exports,
  endpoint,
  filterQuery,
  total,
  shownRows,
  columns,
  labels,
}: {
  title: string;
  exports: CrudExport | undefined;
  endpoint: PagedEndpoint<Row> | undefined;
  filterQuery: Query;
  total: number;
  /** Rows of the page shown (every row of a list or tree). */
  shownRows: readonly Row[];
  /** The visible columns. */
  columns: readonly CrudColumn<Row>[];
  labels: CellLabels;
}) {
  const { t } = useTranslation('crud');
  const [exporting, setExporting] = useState(false);

  const fileName = () => `${safeFileName(title)}_${dayjs().format('YYYYMMDDHHmmss')}.csv`;
  const saveCsv = (rows: readonly Row[]) => {
    if (rows.length === 0) {
      toastWarning(t('export.nothing'));
      return;
    }
    saveBlob(new Blob([rowsToCsv(columns, rows, labels)], { type: CSV_MIME }), fileName());
  };

  const everyRow = async (query: Query): Promise<readonly Row[]> => {
    if (!endpoint) return shownRows;
    if (total > EXPORT_MAX_ROWS) throw new ExportTooLarge();
    const rows: Row[] = [];
    for (const page of exportPages(total, EXPORT_PAGE_SIZE)) {
      const answer = await requestClient().request<unknown>(
        { method: endpoint.method, path: endpoint.path, query: { ...query, ...page } },
        SILENT,
      );
      rows.push(...readPage<Row>(answer).rows);
    }
    return rows;
  };

  /** Exports everything for `query` (default: the search applied to the table). */
  const exportAll = async (query: Query = filterQuery) => {
    const problem = exports?.check?.(query);
    if (problem) {
      toastWarning(problem);
      return;
    }
    setExporting(true);
    try {
      if (exports?.endpoint) {
        const result = await requestClient().download(
          { method: exports.endpoint.method, path: exports.endpoint.path, query },
          SILENT,
        );
        if (result.kind === 'file') saveBlob(result.blob, result.fileName ?? fileName());
        else saveCsv(Array.isArray(result.data) ? (result.data as Row[]) : readPage<Row>(result.data).rows);
      } else {
        saveCsv(await everyRow(query));
      }
    } catch (error) {
      const tooLarge =
        error instanceof ExportTooLarge ||
        (isRequestError(error) && error.code === ResultCode.ExportTooLarge);
      if (tooLarge) toastWarning(t('export.tooLarge'));
      else toastFailed('export', error, { withIssues: true });
    } finally {
      setExporting(false);
    }
  };

  return {
    exporting,
    exportPage: () => saveCsv(shownRows),
    exportAll: (query?: Query) => void exportAll(query),
  };
}
