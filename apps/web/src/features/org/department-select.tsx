import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentOptions, useDepartmentTree } from './department-tree.ts';

/** Spec §9: tree select dropdown at most 300 px high. */
const DROPDOWN_MAX_HEIGHT = 300;

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
  const { t } = useTranslation('crud');
  const tree = useDepartmentTree();
  const treeData = useMemo(() => departmentOptions(tree.data ?? [], exclude), [tree.data, exclude]);
  return (
    <TreeSelect
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      treeData={treeData}
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      loading={tree.isLoading}
      placeholder={placeholder}
      notFoundContent={t('search.noMatch')}
      listHeight={DROPDOWN_MAX_HEIGHT}
      data-testid={testId}
    />
  );
}
