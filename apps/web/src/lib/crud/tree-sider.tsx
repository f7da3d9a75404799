import { SearchOutlined } from '@ant-design/icons';
import { Empty, Input, Spin, Tree, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { filterTree } from './tree.ts';
import './crud.css';

/** A node a tree sider shows: its id, its name and the nodes below it. */
interface SiderTreeNode<Node> {
  id: string;
  name: string;
  children: readonly Node[];
}

interface SiderNode {
  key: string;
  title: ReactNode;
  children?: SiderNode[];
}

/** The key of the "all" entry above the tree. */
const ALL = '';

export interface TreeSiderProps<Node extends SiderTreeNode<Node>> {
  /** The feature's tree query (e.g. `useDepartmentTree()`). */
  tree: { data?: Node[] | undefined; isLoading: boolean };
  /** Whether a node matches the search text (a match keeps the path to it). */
  matches: (node: Node, text: string) => boolean;
  /** The chosen node; undefined for "all". */
  selected: string | undefined;
  onSelect: (id: string | undefined) => void;
  /** Translated texts: the title, the "all" entry, the search placeholder and the two empty states. */
  texts: { title: string; all: string; search: string; noMatch: string; none: string };
  /** Buttons beside the title. */
  extra?: ReactNode;
  /** A node's title in something of the feature's (e.g. its context menu). */
  wrapTitle?: (node: Node, title: ReactNode) => ReactNode;
  /** `testId` on the sider; `<nodeTestId>-search`, `<nodeTestId>-all` and `<nodeTestId>-<id>` on its parts. */
  testId: string;
  nodeTestId: string;
}

/**
 * The tree left of a master-detail table (`<CrudPage sider>`): a title, a search that keeps the path to what
 * it finds, an "all" entry and the tree; choosing a node filters the table (e.g. staff by department).
 */
export function TreeSider<Node extends SiderTreeNode<Node>>({
  tree,
  matches,
  selected,
  onSelect,
  texts,
  extra,
  wrapTitle,
  testId,
  nodeTestId,
}: TreeSiderProps<Node>) {
  const [text, setText] = useState('');

  const shown = useMemo(
    () => (text.trim() ? filterTree(tree.data ?? [], (node) => matches(node, text)) : (tree.data ?? [])),
    [tree.data, text, matches],
  );

  const treeData = useMemo(() => {
    const toNode = (node: Node): SiderNode => {
      const title = (
        <span className="uiot-crud__tree-title" title={node.name} data-testid={`${nodeTestId}-${node.id}`}>
          {node.name}
        </span>
      );
      return {
        key: node.id,
        title: wrapTitle ? wrapTitle(node, title) : title,
        ...(node.children.length > 0 ? { children: node.children.map(toNode) } : {}),
      };
    };
    const all = (
      <span className="uiot-crud__tree-title" data-testid={`${nodeTestId}-all`}>
        {texts.all}
      </span>
    );
    return [{ key: ALL, title: all }, ...shown.map(toNode)];
  }, [shown, texts.all, wrapTitle, nodeTestId]);

  return (
    <div className="uiot-crud__tree-sider" data-testid={testId}>
      <div className="uiot-crud__tree-sider-head">
        <Typography.Text strong>{texts.title}</Typography.Text>
        {extra}
      </div>
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined />}
        placeholder={texts.search}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid={`${nodeTestId}-search`}
      />
      {tree.isLoading ? (
        <div className="uiot-crud__tree-sider-state">
          <Spin size="small" />
        </div>
      ) : (
        <>
          <Tree
            blockNode
            defaultExpandAll
            // A new search opens every node it found.
            key={text.trim()}
            treeData={treeData}
            selectedKeys={[selected ?? ALL]}
            onSelect={(_, info) => onSelect(info.node.key === ALL ? undefined : String(info.node.key))}
            className="uiot-crud__tree"
          />
          {shown.length === 0 && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={text.trim() ? texts.noMatch : texts.none}
            />
          )}
        </>
      )}
    </div>
  );
}
