import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TreeOption } from './types.ts';

/** Spec §9: tree select dropdown at most 300 px high. */
const DROPDOWN_MAX_HEIGHT = 300;

/** What a form passes to a feature's tree chooser (departments, operation units). */
export interface TreeNodeSelectProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** Leaves out this node with everything below it (e.g. the node being moved). */
  exclude?: string;
  placeholder?: string;
  testId: string;
}

/**
 * A chooser of one node of a tree for forms (value: the node id, null when cleared), searchable by title.
 * A feature passes its tree query and the mapping of its nodes to options, which leaves out `exclude`.
 */
export function TreeNodeSelect<Node>({
  value,
  onChange,
  exclude,
  placeholder,
  testId,
  tree,
  toOptions,
}: TreeNodeSelectProps & {
  tree: { data?: Node[] | undefined; isLoading: boolean };
  toOptions: (nodes: Node[], exclude?: string) => TreeOption[];
}) {
  const { t } = useTranslation('crud');
  const treeData = useMemo(() => toOptions(tree.data ?? [], exclude), [toOptions, tree.data, exclude]);
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
