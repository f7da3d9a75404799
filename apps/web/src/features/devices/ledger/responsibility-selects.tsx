import { useQuery } from '@tanstack/react-query';
import { api, type DepartmentNode } from '@uiot/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { TreeNodeSelect, type TreeNodeSelectProps, treeOptions } from '../../../lib/crud/index.ts';
import { endpointQuery } from '../../../lib/request/index.ts';

const QUIET = { noOverlay: true, silent: true } as const;
const departmentOptions = (nodes: readonly DepartmentNode[], exclude?: string) =>
  treeOptions(nodes, (node) => node.name, exclude);

/** The department responsible for a device (spec §3 deptId): a tree chooser. */
export function ResponsibleDepartmentSelect(props: TreeNodeSelectProps) {
  const tree = useQuery({ ...endpointQuery(api.department.getTree, undefined, QUIET), staleTime: 0 });
  return <TreeNodeSelect {...props} tree={tree} toOptions={departmentOptions} />;
}

/** The staff member responsible for a device (spec §3 staffId): active staff, searchable by name. */
export function ResponsibleStaffSelect({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  placeholder?: string;
  testId: string;
}) {
  const { t } = useTranslation('crud');
  const staff = useQuery({ ...endpointQuery(api.staff.getAll, undefined, QUIET), staleTime: 0 });
  return (
    <Select
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      options={(staff.data ?? []).map((member) => ({ value: member.id, label: member.name }))}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={staff.isLoading}
      placeholder={placeholder}
      notFoundContent={t('search.noMatch')}
      data-testid={testId}
    />
  );
}
