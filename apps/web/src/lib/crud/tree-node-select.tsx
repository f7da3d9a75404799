import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TreeOption } from './types.ts';

/** Spec §9: tree select dropdown at most 300 px high. */
const DROPDOWN_MAX_HEIGHT = 300;

/**
 * A chooser of one node of a tree for forms (value: the node id, null when cleared), searchable by title.
 * Features wrap it with their tree (departments, operation units).
 */
export function TreeNodeSelect({
  value,
  onChange,
  treeData,
  loading,
  placeholder,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  treeData: TreeOption[];
  loading?: boolean;
  placeholder?: string;
  testId: string;
}) {
  const { t } = useTranslation('crud');
  return (
    <TreeSelect
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      treeData={treeData}
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      loading={loading}
      placeholder={placeholder}
      notFoundContent={t('search.noMatch')}
      listHeight={DROPDOWN_MAX_HEIGHT}
      data-testid={testId}
    />
  );
}
