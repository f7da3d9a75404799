import { Col, type ColProps, Form, type FormRule, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { formatInterval } from './interval-format.ts';

/** An interval in a table cell: the seconds, and how long that is ("3600 · 1 hr"). */
export function IntervalText({ seconds }: { seconds: number }) {
  const lang = useLang();
  return (
    <span>
      {seconds}
      <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
        {formatInterval(seconds, lang)}
      </Typography.Text>
    </span>
  );
}

/**
 * An interval field in seconds, with how long that is beside it. No rounding or clamping: the shared schema
 * says what is wrong with 0, -1 or 1.5.
 */
export function IntervalInput({
  value,
  onChange,
  testId,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  testId: string;
}) {
  const { t } = useTranslation('deviceType');
  const lang = useLang();
  const readable = typeof value === 'number' && Number.isInteger(value) ? formatInterval(value, lang) : '';
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
      <InputNumber
        value={value}
        onChange={(next) => onChange?.(typeof next === 'number' ? next : null)}
        style={{ flex: 1, minWidth: 0 }}
        suffix={t('unit.seconds')}
        data-testid={testId}
      />
      {readable && (
        <Typography.Text type="secondary" style={{ flex: 'none' }} data-testid={`${testId}-readable`}>
          {readable}
        </Typography.Text>
      )}
    </div>
  );
}

type IntervalField = 'reportInterval' | 'heartbeatInterval';
const INTERVAL_FIELDS: readonly IntervalField[] = ['reportInterval', 'heartbeatInterval'];

/**
 * The reporting and heartbeat interval fields of a device type (required, seconds), each in a `col`; test ids
 * `<testId>-reportInterval` and `<testId>-heartbeatInterval`.
 */
export function IntervalFields({
  rule,
  testId,
  col,
  hints,
}: {
  rule: (field: IntervalField) => FormRule;
  testId: string;
  col: ColProps;
  hints?: Record<IntervalField, string>;
}) {
  const { t } = useTranslation('deviceType');
  return INTERVAL_FIELDS.map((field) => (
    <Col {...col} key={field}>
      <Form.Item
        name={field}
        label={t(`column.${field}`)}
        rules={[rule(field)]}
        extra={hints?.[field]}
        required
      >
        <IntervalInput testId={`${testId}-${field}`} />
      </Form.Item>
    </Col>
  ));
}
