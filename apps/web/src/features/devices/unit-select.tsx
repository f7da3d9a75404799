import { useMemo } from 'react';
import { TreeNodeSelect } from '../../lib/crud/index.ts';
import { unitOptions, useUnitTree } from './unit-tree.ts';

/**
 * An operation unit chooser for forms (value: the unit id, null when cleared). `exclude` leaves out a unit
 * with everything below it.
 */
export function UnitSelect({
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
  const tree = useUnitTree();
  const treeData = useMemo(() => unitOptions(tree.data ?? [], exclude), [tree.data, exclude]);
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
