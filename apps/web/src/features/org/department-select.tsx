import { useMemo } from 'react';
import { TreeNodeSelect } from '../../lib/crud/index.ts';
import { departmentOptions, useDepartmentTree } from './department-tree.ts';

/**
 * A department chooser for forms (value: the department id, null when cleared). `exclude` leaves out a
 * department with everything below it.
 */
export function DepartmentSelect({
  value,
  onChange,
  exclude,
  placeholder,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  exclude?: string;
  placeholder?: string;
  testId: string;
}) {
  const tree = useDepartmentTree();
  const treeData = useMemo(() => departmentOptions(tree.data ?? [], exclude), [tree.data, exclude]);
  return (
    <TreeNodeSelect
      value={value}
      onChange={onChange}
      treeData={treeData}
      loading={tree.isLoading}
      placeholder={placeholder}
      testId={testId}
    />
  );
}
