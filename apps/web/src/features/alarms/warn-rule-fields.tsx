import { useQuery } from '@tanstack/react-query';
import {
  ALARM_MESSAGE_FIELDS,
  api,
  type NoticeChannel,
  PROP_PLACEHOLDER_PREFIX,
  type WarnRuleRow,
} from '@uiot/contracts';
import { Col, Form, type FormInstance, InputNumber, Row, Select, Typography } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { DescriptionInput, SchemaField } from '../../lib/crud/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';
import { DeviceTypeSelect } from '../devices/device-type-select.tsx';
import { clearModeOptions, logicTypeOptions, ruleTypeOptions, severityOptions } from './alarm-options.ts';
import { useDeviceProperties } from './device-properties.ts';
import { RecipientsInput } from './recipients-input.tsx';
import { RuleItemsEditor } from './rule-items-editor.tsx';

/** The placeholders an alarm text may hold (alarm-message.ts), as the help lists them. */
const PLACEHOLDERS = [
  ...ALARM_MESSAGE_FIELDS.map((field) => `{${field}}`),
  `{${PROP_PLACEHOLDER_PREFIX}<code>}`,
];

/** The notices a rule sends, by the channel each goes on. */
const NOTICE_SWITCHES = {
  smsNotice: 'sms',
  msgNotice: 'push',
  emailNotice: 'email',
} as const satisfies Record<string, NoticeChannel>;

/** Which channels the server delivers on (quietly; until known, none is said to be missing). */
function useNoticeChannels() {
  return useQuery(endpointQuery(api.warnRule.noticeChannels, undefined, { noOverlay: true, silent: true }))
    .data;
}

function SecondsInput(props: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  testId: string;
}) {
  const { t } = useTranslation('alarms');
  const { testId, ...rest } = props;
  return (
    <InputNumber
      {...rest}
      min={1}
      precision={0}
      suffix={t('warnRule.seconds')}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}

/** The fields of the warn rule dialog (spec §3 Warn rule, Rule item; severity, clear condition, recipients). */
export function WarnRuleFields({ row, form }: { row: WarnRuleRow | null; form: FormInstance }) {
  const { t } = useTranslation('alarms');
  const deviceTypeId = Form.useWatch('deviceTypeId', form) as string | undefined;
  const ruleType = Form.useWatch('ruleType', form) as string | undefined;
  const resend = Form.useWatch('resend', form) as boolean | undefined;
  const clearMode = Form.useWatch('clearMode', form) as string | undefined;
  const noticeOn: Record<string, boolean | undefined> = {
    smsNotice: Form.useWatch('smsNotice', form),
    msgNotice: Form.useWatch('msgNotice', form),
    emailNotice: Form.useWatch('emailNotice', form),
  };
  const channels = useNoticeChannels();
  const properties = useDeviceProperties(deviceTypeId);
  const catalogue = deviceTypeId ? (properties.data ?? []) : [];

  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <SchemaField name="deviceTypeId">
          <DeviceTypeSelect testId="warnRule-deviceTypeId" />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="name" />
      </Col>
      <Col span={24}>
        <SchemaField
          name="formatMsg"
          extra={
            <span className="uiot-warn-rule__help">
              <Trans
                t={t}
                i18nKey="warnRule.formatMsgHelp"
                components={{
                  placeholders: (
                    <>
                      {PLACEHOLDERS.map((placeholder) => (
                        <code key={placeholder}>{placeholder}</code>
                      ))}
                    </>
                  ),
                }}
              />
            </span>
          }
        >
          <DescriptionInput testId="warnRule-formatMsg" maxLength={500} />
        </SchemaField>
      </Col>
      <Col xs={24} md={8}>
        <SchemaField name="ruleType">
          <Select options={ruleTypeOptions(t)} data-testid="warnRule-ruleType" />
        </SchemaField>
      </Col>
      {ruleType === 'Delay' && (
        <Col xs={24} md={8}>
          <SchemaField name="delayInterval" required>
            <SecondsInput testId="warnRule-delayInterval" />
          </SchemaField>
        </Col>
      )}
      <Col xs={24} md={8}>
        <SchemaField name="logicType">
          <Select options={logicTypeOptions(t)} data-testid="warnRule-logicType" />
        </SchemaField>
      </Col>
      <Col span={24}>
        <Form.Item label={t('warnRule.column.items')} required>
          <RuleItemsEditor
            list="items"
            properties={catalogue}
            loading={properties.isFetching}
            testId="warnRule-items"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <SchemaField name="severity">
          <Select options={severityOptions(t)} data-testid="warnRule-severity" />
        </SchemaField>
      </Col>
      <Col xs={12} md={8}>
        <SchemaField name="resend" />
      </Col>
      {resend && (
        <Col xs={12} md={8}>
          <SchemaField name="resendInterval" required>
            <SecondsInput testId="warnRule-resendInterval" />
          </SchemaField>
        </Col>
      )}
      <Col span={24} />
      <Col xs={24} md={8}>
        <SchemaField name="clearMode">
          <Select options={clearModeOptions(t)} data-testid="warnRule-clearMode" />
        </SchemaField>
      </Col>
      {clearMode === 'items' && (
        <>
          <Col xs={24} md={8}>
            <SchemaField name="clearLogicType">
              <Select options={logicTypeOptions(t)} data-testid="warnRule-clearLogicType" />
            </SchemaField>
          </Col>
          <Col span={24}>
            <Form.Item label={t('warnRule.column.clearItems')} required>
              <RuleItemsEditor
                list="clearItems"
                properties={catalogue}
                loading={properties.isFetching}
                testId="warnRule-clearItems"
              />
            </Form.Item>
          </Col>
        </>
      )}
      <Col span={24} />
      {Object.entries(NOTICE_SWITCHES).map(([name, channel]) => (
        <Col key={name} xs={12} md={6}>
          <SchemaField
            name={name}
            extra={
              channels && !channels[channel] && noticeOn[name] ? (
                <Typography.Text type="warning" data-testid={`warnRule-${name}-unconfigured`}>
                  {t(`warnRule.channelNotConfigured.${channel}`)}
                </Typography.Text>
              ) : undefined
            }
          />
        </Col>
      ))}
      <Col xs={12} md={6}>
        <SchemaField name="enabled" />
      </Col>
      <Col span={24}>
        <SchemaField name="recipients">
          <RecipientsInput known={row?.recipients ?? []} testId="warnRule-recipients" />
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="desc" />
      </Col>
    </Row>
  );
}
