import { api, type DamageLevelRow, damageLevelForm } from '@uiot/contracts';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, SchemaField } from '../../lib/crud/index.ts';

/**
 * Damage levels (spec §2 /sys/damage, §3 Damage level): numbered ranges of the damage value (the damage
 * events a lock reported in the counting window, docs/alarms.md) and what each level means. The server
 * refuses a range that overlaps another level's, or a number already used, on the field.
 */
export function DamageLevelsPage() {
  const { t } = useTranslation('levels');

  const columns: CrudColumn<DamageLevelRow>[] = [
    { key: 'level', title: t('damage.column.level'), width: 90, sortable: true, align: 'center' },
    { key: 'startValue', title: t('damage.column.startValue'), width: 130, sortable: true, align: 'right' },
    { key: 'endValue', title: t('damage.column.endValue'), width: 130, sortable: true, align: 'right' },
    { key: 'description', title: t('damage.column.description'), width: 320 },
    { key: 'updatedAt', title: t('column.updatedAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  return (
    <CrudPage<DamageLevelRow, typeof damageLevelForm>
      id="damageLevels"
      title={t('damage.title')}
      rowKey="id"
      query={api.damageLevel.queryPage}
      columns={columns}
      resource={crudResource({
        save: api.damageLevel.save,
        update: api.damageLevel.update,
        del: api.damageLevel.del,
      })}
      form={{
        schema: damageLevelForm,
        label: (field) => t(`damage.column.${field}`),
        testId: 'damageLevel',
        title: { create: t('damage.dialog.create'), edit: t('damage.dialog.edit') },
        toForm: ({ level, description, startValue, endValue }) => ({
          level,
          description,
          startValue,
          endValue,
        }),
        fields: () => (
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <SchemaField name="level" />
            </Col>
            <Col xs={24} md={8}>
              <SchemaField name="startValue" />
            </Col>
            <Col xs={24} md={8}>
              <SchemaField name="endValue" />
            </Col>
            <Col span={24}>
              <SchemaField name="description" extra={t('damage.rangeHint')} />
            </Col>
          </Row>
        ),
      }}
      remove={{ name: (row) => t('levelName', { level: row.level }) }}
    />
  );
}
