import { Popover, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readableMessage } from './raw-message.ts';

/**
 * The whole message behind a cell: JSON indented, anything else as received (with a note saying so),
 * scrolling when long, with a copy button.
 */
function MessageDetails({ title, text, testId }: { title: string; text: string; testId: string }) {
  const { t } = useTranslation('iot');
  const readable = useMemo(() => readableMessage(text), [text]);
  return (
    <div className="uiot-iot-message__details" data-testid={testId}>
      <div className="uiot-iot-message__details-head">
        <Typography.Text strong copyable={{ text: readable.text }}>
          {title}
        </Typography.Text>
        {!readable.json && <Typography.Text type="secondary">{t('message.details.notJson')}</Typography.Text>}
      </div>
      <pre className="uiot-iot-message__pretty">{readable.text}</pre>
    </div>
  );
}

/**
 * A message cell of the telemetry table (raw message, parsed content): one line cut with an ellipsis; a
 * click opens the whole message. Raw payloads run to kilobytes, more than a one-line tooltip can show.
 * Test ids: `testId` on the cell, `<testId>-details` on the opened message.
 */
export function MessageCell({ title, text, testId }: { title: string; text: string; testId: string }) {
  const { t } = useTranslation('iot');
  if (!text) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Popover
      trigger="click"
      placement="leftTop"
      content={<MessageDetails title={title} text={text} testId={`${testId}-details`} />}
      destroyOnHidden
    >
      <button
        type="button"
        className="uiot-iot-message__cell"
        title={t('message.details.open')}
        data-testid={testId}
      >
        <Typography.Text code ellipsis style={{ maxWidth: '100%' }}>
          {text}
        </Typography.Text>
      </button>
    </Popover>
  );
}
