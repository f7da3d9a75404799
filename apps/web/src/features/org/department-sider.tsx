import { SafetyOutlined, SearchOutlined } from '@ant-design/icons';
import { type DepartmentNode, Permission } from '@uiot/contracts';
import { Button, Dropdown, Empty, Input, Spin, Tooltip, Tree, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterTree } from '../../lib/crud/index.ts';
import { Can, usePermission } from '../../lib/permission/permission.tsx';
import { departmentMatches, useDepartmentTree } from './department-tree.ts';

interface SiderNode {
  key: string;
  title: ReactNode;
  children?: SiderNode[];
}

/** The key of the "all departments" entry above the tree. */
const ALL = '';

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
  const can = usePermission();
  const tree = useDepartmentTree();
  const [text, setText] = useState('');

  const shown = useMemo(
    () =>
      text.trim() ? filterTree(tree.data ?? [], (node) => departmentMatches(node, text)) : (tree.data ?? []),
    [tree.data, text],
  );
  const names = useMemo(() => {
    const map = new Map<string, string>();
    const walk = (nodes: readonly DepartmentNode[]) => {
      for (const node of nodes) {
        map.set(node.id, node.name);
        walk(node.children);
      }
    };
    walk(tree.data ?? []);
    return map;
  }, [tree.data]);

  const treeData = useMemo(() => {
    const toNode = (node: DepartmentNode): SiderNode => {
      const title = (
        <span className="uiot-org__tree-title" title={node.name} data-testid={`staff-dept-${node.id}`}>
          {node.name}
        </span>
      );
      return {
        key: node.id,
        title: can(Permission.RoleGrant) ? (
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
        ...(node.children.length > 0 ? { children: node.children.map(toNode) } : {}),
      };
    };
    return [
      {
        key: ALL,
        title: (
          <span className="uiot-org__tree-title" data-testid="staff-dept-all">
            {t('staff.allDepartments')}
          </span>
        ),
      },
      ...shown.map(toNode),
    ];
  }, [shown, can, t, onGrant]);

  const selectedName = selected ? names.get(selected) : undefined;
  return (
    <div className="uiot-org__sider" data-testid="staff-departments">
      <div className="uiot-org__sider-head">
        <Typography.Text strong>{t('staff.departments')}</Typography.Text>
        <Can permission={Permission.RoleGrant}>
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
      </div>
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined />}
        placeholder={t('department.search')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid="staff-dept-search"
      />
      {tree.isLoading ? (
        <div className="uiot-org__sider-state">
          <Spin size="small" />
        </div>
      ) : (
        <>
          <Tree
            blockNode
            defaultExpandAll
            // A new search opens every department it found.
            key={text.trim()}
            treeData={treeData}
            selectedKeys={[selected ?? ALL]}
            onSelect={(_, info) => onSelect(info.node.key === ALL ? undefined : String(info.node.key))}
            className="uiot-org__tree"
          />
          {shown.length === 0 && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={text.trim() ? t('staff.noDepartmentMatch') : t('staff.noDepartments')}
            />
          )}
        </>
      )}
    </div>
  );
}
