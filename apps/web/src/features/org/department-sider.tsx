import { SafetyOutlined } from '@ant-design/icons';
import { api, type DepartmentNode } from '@uiot/contracts';
import { Button, Dropdown, Tooltip } from 'antd';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { flattenTree, TreeSider } from '../../lib/crud/index.ts';
import { Can, useCan } from '../../lib/permission/permission.tsx';
import { departmentMatches, useDepartmentTree } from './department-tree.ts';

/**
 * The department tree left of the staff table (spec §2 /sys/staff): choosing a department filters the
 * staff; its node menu and the key button open the permissions of that department (role.grant).
 */
export function DepartmentSider({
  selected,
  onSelect,
  onGrant,
}: {
  selected: string | undefined;
  onSelect: (deptId: string | undefined) => void;
  onGrant: (department: { id: string; name: string }) => void;
}) {
  const { t } = useTranslation('org');
  const can = useCan();
  const tree = useDepartmentTree();
  const mayGrant = can(api.permission.saveGrants);

  const selectedName = useMemo(
    () => (selected ? flattenTree(tree.data ?? []).find((node) => node.id === selected)?.name : undefined),
    [tree.data, selected],
  );
  const withGrantMenu = useCallback(
    (node: DepartmentNode, title: ReactNode) =>
      mayGrant ? (
        <Dropdown
          trigger={['contextMenu']}
          menu={{
            items: [{ key: 'grant', icon: <SafetyOutlined />, label: t('staff.departmentGrant') }],
            onClick: () => onGrant({ id: node.id, name: node.name }),
          }}
        >
          {title}
        </Dropdown>
      ) : (
        title
      ),
    [mayGrant, t, onGrant],
  );

  return (
    <TreeSider
      tree={tree}
      matches={departmentMatches}
      selected={selected}
      onSelect={onSelect}
      texts={{
        title: t('staff.departments'),
        all: t('staff.allDepartments'),
        search: t('department.search'),
        noMatch: t('staff.noDepartmentMatch'),
        none: t('staff.noDepartments'),
      }}
      extra={
        <Can endpoint={api.permission.saveGrants}>
          <Tooltip
            title={
              selectedName
                ? t('staff.departmentGrantOf', { name: selectedName })
                : t('staff.departmentGrantHint')
            }
          >
            <Button
              size="small"
              icon={<SafetyOutlined />}
              disabled={!selected || !selectedName}
              onClick={() => selected && selectedName && onGrant({ id: selected, name: selectedName })}
              data-testid="staff-dept-grant"
            >
              {t('grant.action')}
            </Button>
          </Tooltip>
        </Can>
      }
      wrapTitle={withGrantMenu}
      testId="staff-departments"
      nodeTestId="staff-dept"
    />
  );
}
