import { api, type DepartmentNode } from '@uiot/contracts';
import { TreeNodeSelect, type TreeNodeSelectProps, treeOptions, useTree } from '../../../lib/crud/index.ts';

/**
 * The organisation's departments as the devices pages choose them (a device's or a key's); staff are
 * chosen with the organisation's `StaffSelect`.
 */

export const departmentOptions = (nodes: readonly DepartmentNode[], exclude?: string) =>
  treeOptions(nodes, (node) => node.name, exclude);

export const useDepartments = () => useTree(api.department.getTree);

/** The department responsible for a device, or a key's (spec §3 deptId): a tree chooser. */
export function ResponsibleDepartmentSelect(props: TreeNodeSelectProps) {
  return <TreeNodeSelect {...props} tree={useDepartments()} toOptions={departmentOptions} />;
}
