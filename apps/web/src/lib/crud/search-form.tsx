import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { translateValidation } from '@uiot/contracts';
import { Button, Form, type FormInstance, type FormRule, Input, Select, TreeSelect } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleNow } from '../console-time.ts';
import { ConsoleDatePicker } from '../form/console-date-picker.ts';
import { DATE_TIME_FORMAT } from '../i18n/date-format.ts';
import { useLang } from '../i18n/use-lang.ts';
import { searchRangeProblem } from './page-query.ts';
import type { SearchField } from './types.ts';

/**
 * Spec §9: date presets of 1 day, 1 week, 1 month, 2 months, 3 months (90 days), half a year, a year, up to
 * now, counted on the station's calendar (UTC+8) as the pickers show it.
 */
const RANGE_PRESETS = [
  { key: 'day', amount: 1, unit: 'day' },
  { key: 'week', amount: 1, unit: 'week' },
  { key: 'month', amount: 1, unit: 'month' },
  { key: 'twoMonths', amount: 2, unit: 'month' },
  { key: 'threeMonths', amount: 90, unit: 'day' },
  { key: 'halfYear', amount: 180, unit: 'day' },
  { key: 'year', amount: 365, unit: 'day' },
] as const;

/** Spec §9: tree select dropdown at most 300 px high. */
const TREE_DROPDOWN_MAX_HEIGHT = 300;

/** One search control; `value` and `onChange` come from the enclosing `Form.Item`. */
function SearchInput({
  field,
  testId,
  ...control
}: {
  field: SearchField;
  testId: string;
  value?: never;
  onChange?: never;
}) {
  const { t } = useTranslation('crud');
  const offered = field.kind === 'dateTimeRange' ? field.presets : undefined;
  const presets = useMemo(
    () =>
      RANGE_PRESETS.filter((preset) => !offered || offered.includes(preset.key)).map((preset) => ({
        label: t(`search.preset.${preset.key}`),
        value: (): [Dayjs, Dayjs] => {
          const now = consoleNow();
          return [now.subtract(preset.amount, preset.unit), now];
        },
      })),
    [t, offered],
  );
  switch (field.kind) {
    case 'text':
      return (
        <Input
          {...control}
          allowClear
          maxLength={field.maxLength ?? 64}
          placeholder={field.placeholder}
          data-testid={testId}
        />
      );
    case 'select':
      return (
        <Select
          {...control}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          mode={field.multiple ? 'multiple' : undefined}
          maxTagCount="responsive"
          placeholder={t('search.all')}
          options={field.options.map((option) => ({ ...option, value: option.value as string | number }))}
          data-testid={testId}
        />
      );
    case 'yesNo':
      return (
        <Select
          {...control}
          allowClear
          placeholder={t('search.all')}
          options={[
            { value: true, label: t('value.yes') },
            { value: false, label: t('value.no') },
          ]}
          data-testid={testId}
        />
      );
    case 'dateTimeRange':
      return (
        <ConsoleDatePicker.RangePicker
          {...control}
          showTime
          format={DATE_TIME_FORMAT}
          presets={presets}
          placeholder={[t('search.rangeStart'), t('search.rangeEnd')]}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    case 'custom':
      return field.input({ ...control, testId });
    case 'treeSelect':
      return (
        <TreeSelect
          {...control}
          allowClear
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll
          treeData={field.treeData as never}
          placeholder={t('search.all')}
          notFoundContent={t('search.noMatch')}
          listHeight={TREE_DROPDOWN_MAX_HEIGHT}
          styles={{ popup: { root: { maxHeight: TREE_DROPDOWN_MAX_HEIGHT, overflow: 'auto' } } }}
          data-testid={testId}
        />
      );
  }
}

/** The search form above a table: one control per field, then search and reset (spec §7). */
export function SearchForm({
  id,
  fields,
  form,
  onSearch,
  onReset,
}: {
  id: string;
  fields: readonly SearchField[];
  form: FormInstance;
  onSearch: () => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('crud');
  const lang = useLang();
  // Spec §5: the end of a time range is later than its start; the search is not made otherwise.
  const rangeRule = useMemo<FormRule>(
    () => ({
      validator: async (_, value) => {
        const problem = searchRangeProblem(value);
        if (problem) throw new Error(translateValidation(problem, lang));
      },
    }),
    [lang],
  );
  const initialValues = useMemo(
    () => Object.fromEntries(fields.map((field) => [field.name, field.initialValue])),
    [fields],
  );
  return (
    <Form
      form={form}
      layout="inline"
      className="uiot-crud__search"
      initialValues={initialValues}
      onFinish={onSearch}
      data-testid={`${id}-search`}
    >
      {fields.map((field) => (
        <Form.Item
          key={field.name}
          name={field.name}
          label={field.label}
          rules={field.kind === 'dateTimeRange' ? [rangeRule] : undefined}
          className={
            field.kind === 'dateTimeRange'
              ? 'uiot-crud__search-item uiot-crud__search-item--wide'
              : 'uiot-crud__search-item'
          }
        >
          <SearchInput field={field} testId={`${id}-search-${field.name}`} />
        </Form.Item>
      ))}
      <Form.Item className="uiot-crud__search-buttons">
        <Button
          type="primary"
          htmlType="submit"
          icon={<SearchOutlined />}
          data-testid={`${id}-search-submit`}
        >
          {t('search.submit')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={onReset} data-testid={`${id}-search-reset`}>
          {t('search.reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}
