import { translateValidation } from '@uiot/contracts';
import type { FormInstance } from 'antd';
import { useLang } from '../i18n/use-lang.ts';
import { searchRangeProblem } from './page-query.ts';
import type { CrudExport } from './types.ts';
import type { useCrudExport } from './use-crud-export.ts';
import type { CrudTable } from './use-crud-table.ts';

/**
 * "Export all" of a page: with `exports.range`, the search form must hold that date-time range, at most a
 * year (spec §5): the reason shows on the field; the form's search is then applied to the table and
 * exported.
 */
export function useRangedExport<Row extends object>({
  exports,
  searchForm,
  table,
  exporter,
}: {
  exports: CrudExport | undefined;
  searchForm: FormInstance;
  table: CrudTable<Row>;
  exporter: ReturnType<typeof useCrudExport<Row>>;
}): () => Promise<void> {
  const lang = useLang();
  return async () => {
    const range = exports?.range;
    if (!range) {
      exporter.exportAll();
      return;
    }
    const problem = searchRangeProblem(searchForm.getFieldValue(range), { forExport: true });
    if (problem) {
      searchForm.setFields([{ name: range, errors: [translateValidation(problem, lang)] }]);
      return;
    }
    let values: Record<string, unknown>;
    try {
      values = await searchForm.validateFields();
    } catch {
      return;
    }
    table.applySearch(values);
    exporter.exportAll(table.queryFor(values));
  };
}
