import { Typography } from 'antd';

/** One line of text, cut with an ellipsis when too long, the whole text in a tooltip. */
export function EllipsisText({ text, code = false }: { text: string | null | undefined; code?: boolean }) {
  if (!text) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Typography.Text ellipsis={{ tooltip: text }} code={code} style={{ maxWidth: '100%' }}>
      {text}
    </Typography.Text>
  );
}
