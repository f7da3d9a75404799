import { SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { api, deviceParamForm } from '@uiot/contracts';
import { Button, Col, Form, Input, Radio, Row, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { fieldErrorsOf, hasNamePath } from '../../lib/form/field-errors.ts';
import { useSchemaRule } from '../../lib/form/schema-rules.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { call, isRequestError } from '../../lib/request/index.ts';

/** The form's values: both kinds' fields; the schema reads those of the chosen kind. */
interface ParamFormValues {
  kind: 'value' | 'period';
  deviceId: string;
  name?: string;
  value?: string;
  start?: string;
  end?: string;
}

const TIME_OF_DAY_FORMAT = 'HH:mm';

/** A time-of-day picker on an `HH:mm` text field, the form the contract takes. */
const timeOfDayProps = {
  getValueProps: (value: unknown) => ({
    value: typeof value === 'string' && value ? dayjs(value, TIME_OF_DAY_FORMAT) : null,
  }),
  normalize: (value: Dayjs | null) => (value ? value.format(TIME_OF_DAY_FORMAT) : undefined),
};

/**
 * Parameter send-down (spec §2 monitor details "param config", §5): a value parameter (name and value) or a
 * period parameter (name and a time-of-day range, start before end), checked by the contract's schema and
 * sent as a `setParam` command. Test ids `monitorParam-*`.
 */
export function ParamForm({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('monitor');
  const client = useQueryClient();
  const [form] = Form.useForm<ParamFormValues>();
  const kind = Form.useWatch('kind', form) ?? 'value';
  const rule = useSchemaRule(deviceParamForm as unknown as z.ZodType<unknown, ParamFormValues>);
  const [sending, setSending] = useState(false);

  // Messages shown are in the language they were made in: a new language checks those fields again.
  const lang = useLang();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is what the effect follows
  useEffect(() => {
    const shown = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => field.name);
    if (shown.length > 0) form.validateFields(shown).catch(() => undefined);
  }, [form, lang]);

  const send = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    // The fields passed the same schema one by one; parsing shapes the body of the chosen kind.
    const parsed = deviceParamForm.safeParse({ ...form.getFieldsValue(true), deviceId });
    if (!parsed.success) return;
    setSending(true);
    try {
      await call(api.deviceCommand.sendParam, { body: parsed.data }, { silent: true, canCancel: false });
      toastSucceeded('sendCommand');
      void client.invalidateQueries({ queryKey: [api.deviceCommand.queryPage.path] });
    } catch (error) {
      if (isRequestError(error) && error.issues.length > 0) {
        const current = form.getFieldsValue();
        form.setFields(fieldErrorsOf(error.issues, (name) => hasNamePath(current, name)).fields as never);
      }
      toastFailed('sendCommand', error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Form<ParamFormValues>
      form={form}
      layout="vertical"
      className="uiot-monitor__param-form"
      initialValues={{ kind: 'value', deviceId }}
      disabled={sending}
      onFinish={() => void send()}
      data-testid="monitorParam"
    >
      <Form.Item name="kind" label={t('param.kind')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'value', label: t('param.kindValue') },
            { value: 'period', label: t('param.kindPeriod') },
          ]}
          data-testid="monitorParam-kind"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={kind === 'value' ? 12 : 8}>
          <Form.Item
            name="name"
            label={t('param.name')}
            extra={t('param.nameHint')}
            rules={[rule('name')]}
            required
          >
            <Input maxLength={64} data-testid="monitorParam-name" />
          </Form.Item>
        </Col>
        {kind === 'value' ? (
          <Col xs={24} md={12}>
            <Form.Item name="value" label={t('param.value')} rules={[rule('value')]} required>
              <Input maxLength={256} data-testid="monitorParam-value" />
            </Form.Item>
          </Col>
        ) : (
          <>
            <Col xs={12} md={8}>
              <Form.Item
                name="start"
                label={t('param.start')}
                rules={[rule('start')]}
                required
                {...timeOfDayProps}
              >
                <TimePicker
                  format={TIME_OF_DAY_FORMAT}
                  needConfirm={false}
                  style={{ width: '100%' }}
                  data-testid="monitorParam-start"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item
                name="end"
                label={t('param.end')}
                rules={[rule('end')]}
                // The end must be after the start: checked again when the start changes.
                dependencies={['start']}
                required
                {...timeOfDayProps}
              >
                <TimePicker
                  format={TIME_OF_DAY_FORMAT}
                  needConfirm={false}
                  style={{ width: '100%' }}
                  data-testid="monitorParam-end"
                />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      <Button
        type="primary"
        htmlType="submit"
        icon={<SendOutlined />}
        loading={sending}
        data-testid="monitorParam-send"
      >
        {t('param.send')}
      </Button>
    </Form>
  );
}
