import { SearchOutlined } from '@ant-design/icons';
import type { UnitNode } from '@uiot/contracts';
import { Empty, Input, Spin, Tree, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterTree } from '../../../lib/crud/index.ts';
import { unitMatches, useUnitTree } from '../unit-tree.ts';

interface SiderNode {
  key: string;
  title: ReactNode;
  children?: SiderNode[];
}

/** The key of the "all units" entry above the tree. */
const ALL = '';

/**
 * The operation unit tree left of the ledger (spec §2 /device/new-ledger): choosing a unit shows its
 * devices and those of the units below it.
 */
export function UnitSider({
  selected,
  onSelect,
}: {
  selected: string | undefined;
  onSelect: (unitId: string | undefined) => void;
}) {
  const { t } = useTranslation('ledger');
  const tree = useUnitTree();
  const [text, setText] = useState('');

  const shown = useMemo(
    () => (text.trim() ? filterTree(tree.data ?? [], (node) => unitMatches(node, text)) : (tree.data ?? [])),
    [tree.data, text],
  );

  const treeData = useMemo(() => {
    const toNode = (node: UnitNode): SiderNode => ({
      key: node.id,
      title: (
        <span className="uiot-ledger__tree-title" title={node.name} data-testid={`ledger-unit-${node.id}`}>
          {node.name}
        </span>
      ),
      ...(node.children.length > 0 ? { children: node.children.map(toNode) } : {}),
    });
    return [
      {
        key: ALL,
        title: (
          <span className="uiot-ledger__tree-title" data-testid="ledger-unit-all">
            {t('sider.all')}
          </span>
        ),
      },
      ...shown.map(toNode),
    ];
  }, [shown, t]);

  return (
    <div className="uiot-ledger__sider" data-testid="ledger-units">
      <Typography.Text strong>{t('sider.title')}</Typography.Text>
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined />}
        placeholder={t('sider.search')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid="ledger-unit-search"
      />
      {tree.isLoading ? (
        <div className="uiot-ledger__sider-state">
          <Spin size="small" />
        </div>
      ) : (
        <>
          <Tree
            blockNode
            defaultExpandAll
            // A new search opens every unit it found.
            key={text.trim()}
            treeData={treeData}
            selectedKeys={[selected ?? ALL]}
            onSelect={(_, info) => onSelect(info.node.key === ALL ? undefined : String(info.node.key))}
            className="uiot-ledger__tree"
          />
          {shown.length === 0 && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={text.trim() ? t('sider.noMatch') : t('sider.none')}
            />
          )}
        </>
      )}
    </div>
  );
}
