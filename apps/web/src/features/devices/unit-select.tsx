import { TreeNodeSelect, type TreeNodeSelectProps } from '../../lib/crud/index.ts';
import { unitOptions, useUnitTree } from './unit-tree.ts';

/** An operation unit chooser for forms; `exclude` leaves out a unit with everything below it. */
export function UnitSelect(props: TreeNodeSelectProps) {
  return <TreeNodeSelect {...props} tree={useUnitTree()} toOptions={unitOptions} />;
}
