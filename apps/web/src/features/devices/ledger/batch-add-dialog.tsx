import { api, BATCH_ADD_MAX, type BatchAddForm, batchAddForm, batchNames } from '@uiot/contracts';
import { Col, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '../../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../../lib/feedback/outcome.ts';
import { useSchemaRule } from '../../../lib/form/schema-rules.ts';
import { call } from '../../../lib/request/index.ts';
import { DeviceTypeSelect } from '../device-type-select.tsx';
import { deviceCategoryOptions } from '../device-type-tree.ts';
import { UnitSelect } from '../unit-select.tsx';
import { iotTypeOptions, selectOptions } from './ledger-options.ts';
import { ResponsibleDepartmentSelect, ResponsibleStaffSelect } from './responsibility-selects.tsx';

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
 * the devices are numbered from 1.
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
        <Col xs={24} md={12}>
          <Form.Item name="namePrefix" label={t('batch.namePrefix')} rules={[rule('namePrefix')]} required>
            <Input maxLength={48} autoComplete="off" data-testid="batch-namePrefix" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="descPrefix" label={t('batch.descPrefix')} rules={[rule('descPrefix')]} required>
            <Input maxLength={200} autoComplete="off" data-testid="batch-descPrefix" />
          </Form.Item>
        </Col>
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
        <Col xs={24} md={12}>
          <Form.Item name="unitId" label={t('column.unitName')} rules={[rule('unitId')]} required>
            <UnitSelect placeholder={t('form.chooseUnit')} testId="batch-unitId" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="typeId" label={t('column.typeName')} rules={[rule('typeId')]} required>
            <DeviceTypeSelect placeholder={t('form.chooseType')} testId="batch-typeId" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="category"
            label={t('column.category')}
            rules={[rule('category')]}
            extra={t('hint.category')}
          >
            <Select
              options={selectOptions(deviceCategoryOptions(t))}
              allowClear
              placeholder={t('form.notSet')}
              data-testid="batch-category"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="iotType" label={t('column.iotType')} rules={[rule('iotType')]}>
            <Select
              options={selectOptions(iotTypeOptions(t))}
              allowClear
              placeholder={t('form.notSet')}
              data-testid="batch-iotType"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="deptId" label={t('column.deptName')} rules={[rule('deptId')]}>
            <ResponsibleDepartmentSelect placeholder={t('form.notSet')} testId="batch-deptId" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="staffId" label={t('column.staffName')} rules={[rule('staffId')]}>
            <ResponsibleStaffSelect placeholder={t('form.notSet')} testId="batch-staffId" />
          </Form.Item>
        </Col>
      </Row>
      <BatchPreview form={form} />
    </FormDialog>
  );
}
