import { Tag, Tooltip } from 'antd';

/** Names shown in a cell before the rest are counted (the tooltip lists them all). */
const NAMES_SHOWN = 3;

/** A list of named things in a table cell (devices, operators): the first names and how many more. */
export function NamesCell({
  items,
  more,
  testId,
}: {
  items: readonly { id: string; name: string }[];
  /** The translated "+n more". */
  more: (count: number) => string;
  testId: string;
}) {
  const rest = items.length - NAMES_SHOWN;
  return (
    <Tooltip title={items.map((item) => <div key={item.id}>{item.name}</div>)}>
      <span className="uiot-tasks__devices" data-testid={testId}>
        <span className="uiot-tasks__devices-names">
          {items
            .slice(0, NAMES_SHOWN)
            .map((item) => item.name)
            .join(', ')}
        </span>
        {rest > 0 && <Tag className="uiot-tasks__devices-more">{more(rest)}</Tag>}
      </span>
    </Tooltip>
  );
}
