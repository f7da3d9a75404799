import { EllipsisText } from '../ui/ellipsis-text.tsx';
import { type CellLabels, cellText, cellValue } from './cells.ts';
import type { CrudColumn } from './types.ts';

/** A cell as declared by its column: one line cut with an ellipsis, the whole text in a tooltip. */
export function CellView<Row>({
  column,
  row,
  labels,
}: {
  column: CrudColumn<Row>;
  row: Row;
  labels: CellLabels;
}) {
  const text = cellText(cellValue(column, row), column.format, labels);
  return <EllipsisText text={text} code={column.format === 'code'} />;
}
