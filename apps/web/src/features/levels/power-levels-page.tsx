import { api, POWER_LEVEL_STATES, type PowerLevelRow, powerLevelForm } from '@uiot/contracts';
import { Col, Row, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
  type SelectOption,
} from '../../lib/crud/index.ts';

/**
 * Power (battery) levels (spec §2 /sys/battery-power, §3 Power level): numbered battery ranges in %, the
 * days a lock keeps working from each, and the run state each stands for. The server refuses a range that
 * overlaps another level's, or a number already used, on the field.
 */
export function PowerLevelsPage() {
  const { t } = useTranslation('levels');
  const stateOptions: SelectOption[] = POWER_LEVEL_STATES.map((value) => ({
    value,
    label: t(`power.state.${value}`),
  }));

  const columns: CrudColumn<PowerLevelRow>[] = [
    { key: 'level', title: t('power.column.level'), width: 90, sortable: true, align: 'center' },
    { key: 'startValue', title: t('power.column.startValue'), width: 130, sortable: true, align: 'right' },
    { key: 'endValue', title: t('power.column.endValue'), width: 130, sortable: true, align: 'right' },
    { key: 'availableDays', title: t('power.column.availableDays'), width: 130, align: 'right' },
    {
      key: 'state',
      title: t('power.column.state'),
      width: 120,
      value: (row) => t(`power.state.${row.state}`),
      render: (row) => (
        <Tag color={row.state === 'lowPower' ? 'orange' : 'green'}>{t(`power.state.${row.state}`)}</Tag>
      ),
    },
    { key: 'updatedAt', title: t('column.updatedAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'select', name: 'state', label: t('power.column.state'), options: stateOptions },
  ];

  return (
    <CrudPage<PowerLevelRow, typeof powerLevelForm>
      id="powerLevels"
      title={t('power.title')}
      rowKey="id"
      query={api.powerLevel.queryPage}
      columns={columns}
      search={search}
      resource={crudResource({
        save: api.powerLevel.save,
        update: api.powerLevel.update,
        del: api.powerLevel.del,
      })}
      form={{
        schema: powerLevelForm,
        label: (field) => t(`power.column.${field}`),
        testId: 'powerLevel',
        title: { create: t('power.dialog.create'), edit: t('power.dialog.edit') },
        defaults: { availableDays: 0, state: 'normal' },
        toForm: ({ level, startValue, endValue, availableDays, state }) => ({
          level,
          startValue,
          endValue,
          availableDays,
          state,
        }),
        fields: () => (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <SchemaField name="level" />
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="state">
                <Select options={stateOptions} data-testid="powerLevel-state" />
              </SchemaField>
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="startValue" />
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="endValue" />
            </Col>
            <Col span={24}>
              <SchemaField name="availableDays" extra={t('power.rangeHint')} />
            </Col>
          </Row>
        ),
      }}
      remove={{ name: (row) => t('levelName', { level: row.level }) }}
    />
  );
}
