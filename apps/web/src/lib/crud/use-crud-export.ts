import { CSV_MIME, ResultCode } from '@uiot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleNow } from '../console-time.ts';
import { toastWarning } from '../feedback/feedback.ts';
import { toastFailed } from '../feedback/outcome.ts';
import { safeFileName, saveBlob } from '../file/save-file.ts';
import { isRequestError, requestClient } from '../request/index.ts';
import { type CellLabels, rowsToCsv } from './cells.ts';
import { exportFileName } from './export-file.ts';
import { exportPages, PAGE_SIZES, type Paging, type Query, readPage } from './page-query.ts';
import type { CallOptions, CrudColumn, CrudExport, PagedEndpoint } from './types.ts';

/** The API serves at most this many rows a page: "export all" without an export endpoint pages by it. */
const EXPORT_PAGE_SIZE = Math.max(...PAGE_SIZES);
/** Most rows "export all" collects in the browser (the server's own export limit, EXPORT_MAX_ROWS). */
const EXPORT_MAX_ROWS = 100_000;
const SILENT: CallOptions = { silent: true, canCancel: false };

class ExportTooLarge extends Error {}

/**
 * Export of the current page (CSV of the visible columns, made in the browser, or the export endpoint's
 * file for that page with `pageFromEndpoint`) and of everything: the page's export endpoint when it has one
 * (the file it answers, CSV, xlsx or any other type, is saved as it comes, named by the server or after
 * its type), else every page of the query (spec §7: page 1 with pageSize = total). Code 1060 shows
 * 'export data too large, please filter'.
 */
export function useCrudExport<Row>({
  title,
  exports,
  endpoint,
  filterQuery,
  paging,
  total,
  shownRows,
  columns,
  labels,
}: {
  title: string;
  exports: CrudExport | undefined;
  endpoint: PagedEndpoint<Row> | undefined;
  filterQuery: Query;
  /** Paging of the page shown (paged tables), for "export this page" through the endpoint. */
  paging: Paging | null;
  total: number;
  /** Rows of the page shown (every row of a list or tree). */
  shownRows: readonly Row[];
  /** The visible columns. */
  columns: readonly CrudColumn<Row>[];
  labels: CellLabels;
}) {
  const { t } = useTranslation('crud');
  const [exporting, setExporting] = useState(false);

  // The file's time, on the station's clock like every time the console shows (spec §9).
  const stamp = () => consoleNow().format('YYYYMMDDHHmmss');
  const fileName = () => `${safeFileName(title)}_${stamp()}.csv`;
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

  /** Saves what the export endpoint answers for `query`: its file, or the rows of its envelope as CSV. */
  const fromEndpoint = async (endpoint: NonNullable<CrudExport['endpoint']>, query: Query) => {
    const result = await requestClient().download(
      { method: endpoint.method, path: endpoint.path, query },
      SILENT,
    );
    if (result.kind === 'file') {
      saveBlob(
        result.blob,
        exportFileName({ title, stamp: stamp(), contentType: result.blob.type, serverName: result.fileName }),
      );
    } else {
      saveCsv(Array.isArray(result.data) ? (result.data as Row[]) : readPage<Row>(result.data).rows);
    }
  };

  const run = async (work: () => Promise<void>) => {
    setExporting(true);
    try {
      await work();
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

  /** Exports everything for `query` (default: the search applied to the table). */
  const exportAll = async (query: Query = filterQuery) => {
    const problem = exports?.check?.(query);
    if (problem) {
      toastWarning(problem);
      return;
    }
    const endpointOfExport = exports?.endpoint;
    await run(async () => {
      if (endpointOfExport) await fromEndpoint(endpointOfExport, query);
      else saveCsv(await everyRow(query));
    });
  };

  /** Exports the page shown: through the endpoint with its paging when asked to, else as CSV. */
  const exportPage = async () => {
    const endpointOfExport = exports?.endpoint;
    if (!exports?.pageFromEndpoint || !endpointOfExport || !paging) {
      saveCsv(shownRows);
      return;
    }
    if (shownRows.length === 0) {
      toastWarning(t('export.nothing'));
      return;
    }
    await run(() =>
      fromEndpoint(endpointOfExport, {
        ...filterQuery,
        pageIndex: paging.pageIndex,
        pageSize: paging.pageSize,
      }),
    );
  };

  return {
    exporting,
    exportPage: () => void exportPage(),
    exportAll: (query?: Query) => void exportAll(query),
  };
}
