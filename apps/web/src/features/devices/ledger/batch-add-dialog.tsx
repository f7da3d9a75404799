import { api, BATCH_ADD_MAX, type BatchAddForm, batchAddForm, batchNames, flagOn } from '@uiot/contracts';
import { Col, Form, InputNumber, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFeatureFlags } from '../../../lib/auth/index.ts';
import { FormDialog } from '../../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../../lib/feedback/outcome.ts';
import { useSchemaRule } from '../../../lib/form/schema-rules.ts';
import { call } from '../../../lib/request/index.ts';
import {
  CategoryField,
  IotTypeField,
  ResponsibilityFields,
  TextField,
  TypeField,
  UnitField,
} from './ledger-fields.tsx';

type BatchInput = z.input<typeof batchAddForm>;

/** The names the batch will give, first and last (spec §5: `{prefix}{n}` from 1). */
function BatchPreview({ form }: { form: ReturnType<typeof Form.useForm<BatchInput>>[0] }) {
  const { t } = useTranslation('ledger');
  const namePrefix = Form.useWatch('namePrefix', form);
  const descPrefix = Form.useWatch('descPrefix', form);
  const count = Form.useWatch('count', form);
  const total = Number(count);
  if (!namePrefix?.trim() || !Number.isInteger(total) || total < 1 || total > BATCH_ADD_MAX) return null;
  const names = batchNames({
    namePrefix: namePrefix.trim(),
    descPrefix: descPrefix?.trim() ?? '',
    count: total,
  });
  const first = names[0]?.name ?? '';
  const last = names[names.length - 1]?.name ?? '';
  return (
    <Typography.Paragraph type="secondary" className="uiot-ledger__batch-preview" data-testid="batch-preview">
      {total === 1 ? t('batch.previewOne', { first }) : t('batch.preview', { first, last, total })}
    </Typography.Paragraph>
  );
}

/**
 * Batch add (spec §5): a name prefix, a description prefix and a count, in one unit and of one type;
 * the devices are numbered from 1. The IoT platform only while SupportIoT is on (spec §6).
 */
export function BatchAddDialog({
  open,
  unitId,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The unit chosen beside the ledger, if any. */
  unitId: string | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('ledger');
  const [form] = Form.useForm<BatchInput>();
  const rule = useSchemaRule(batchAddForm);
  const fieldProps = { rule, testId: 'batch' };
  const iot = flagOn(useFeatureFlags(), 'SupportIoT');

  const save = async (values: BatchInput) => {
    const body: BatchAddForm = batchAddForm.parse(values);
    try {
      await call(api.device.batchSave, { body }, { silent: true, canCancel: false });
    } catch (error) {
      toastFailed('create', error);
      throw error;
    }
    toastSucceeded('create');
    onSaved();
  };

  return (
    <FormDialog<BatchInput>
      open={open}
      title={t('batch.title')}
      form={form}
      onSubmit={save}
      onClose={onClose}
      initialValues={{ count: 1, ...(unitId ? { unitId } : {}) }}
      width={760}
      confirmUnsaved
      testId="ledger-batch-dialog"
    >
      <Row gutter={16}>
        <TextField {...fieldProps} name="namePrefix" label={t('batch.namePrefix')} maxLength={48} required />
        <TextField {...fieldProps} name="descPrefix" label={t('batch.descPrefix')} maxLength={200} required />
        <Col xs={24} md={12}>
          <Form.Item
            name="count"
            label={t('batch.count')}
            rules={[rule('count')]}
            required
            extra={t('batch.countHint', { max: BATCH_ADD_MAX })}
          >
            <InputNumber
              min={1}
              max={BATCH_ADD_MAX}
              precision={0}
              style={{ width: '100%' }}
              data-testid="batch-count"
            />
          </Form.Item>
        </Col>
        <UnitField {...fieldProps} />
        <TypeField {...fieldProps} />
        <CategoryField {...fieldProps} />
        {iot && <IotTypeField {...fieldProps} />}
        <ResponsibilityFields {...fieldProps} />
      </Row>
      <BatchPreview form={form} />
    </FormDialog>
  );
}
