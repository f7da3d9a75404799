import { TreeNodeSelect, type TreeNodeSelectProps } from '../../lib/crud/index.ts';
import { departmentOptions, useDepartmentTree } from './department-tree.ts';

/** A department chooser for forms; `exclude` leaves out a department with everything below it. */
export function DepartmentSelect(props: TreeNodeSelectProps) {
  return <TreeNodeSelect {...props} tree={useDepartmentTree()} toOptions={departmentOptions} />;
}
