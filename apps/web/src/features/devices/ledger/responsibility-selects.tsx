import { useQuery } from '@tanstack/react-query';
import { api, type DepartmentNode } from '@uiot/contracts';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TreeNodeSelect, type TreeNodeSelectProps, treeOptions, useTree } from '../../../lib/crud/index.ts';
import { endpointQuery } from '../../../lib/request/index.ts';

/** The organisation's departments and staff as the devices pages choose them (a device's or a key's). */

interface StaffOption {
  value: string;
  label: string;
}

export const departmentOptions = (nodes: readonly DepartmentNode[], exclude?: string) =>
  treeOptions(nodes, (node) => node.name, exclude);

export const useDepartments = () => useTree(api.department.getTree);

function useStaff() {
  return useQuery({
    ...endpointQuery(api.staff.getAll, undefined, { noOverlay: true, silent: true }),
    staleTime: 0,
  });
}

/** Active staff as select options (value: the staff id). */
export function useStaffOptions(): { options: StaffOption[]; isLoading: boolean } {
  const staff = useStaff();
  const options = useMemo(
    () => (staff.data ?? []).map((member) => ({ value: member.id, label: member.name })),
    [staff.data],
  );
  return { options, isLoading: staff.isLoading };
}

/** The department responsible for a device, or a key's (spec §3 deptId): a tree chooser. */
export function ResponsibleDepartmentSelect(props: TreeNodeSelectProps) {
  return <TreeNodeSelect {...props} tree={useDepartments()} toOptions={departmentOptions} />;
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
  const staff = useStaffOptions();
  return (
    <Select
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      options={staff.options}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={staff.isLoading}
      placeholder={placeholder}
      notFoundContent={t('search.noMatch')}
      data-testid={testId}
    />
  );
}
