import { api, type ParamListRow, paramForm } from '@uiot/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, type SearchField } from '../../lib/crud/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { ParamFormFields } from './param-form-fields.tsx';
import { groupLabel, useParamGroups } from './param-groups.ts';
import './params-page.css';

/**
 * System parameters (spec §2 /sys/params, §3 Parameter): the feature flags of spec §6 (group `feature`) and
 * the named settings among them. A parameter that is not editable offers no edit or delete.
 */
export function ParamsPage() {
  const { t } = useTranslation('params');
  const groups = useParamGroups(t);

  const columns: CrudColumn<ParamListRow>[] = [
    { key: 'name', title: t('column.name'), width: 190, sortable: true, fixed: 'left' },
    {
      key: 'val',
      title: t('column.val'),
      width: 160,
      render: (row) => <ParamValue row={row} value={row.val} />,
    },
    { key: 'valType', title: t('column.valType'), width: 80, value: (row) => t(`valType.${row.valType}`) },
    { key: 'cls', title: t('column.cls'), width: 90 },
    {
      key: 'defVal',
      title: t('column.defVal'),
      width: 130,
      render: (row) => <ParamValue row={row} value={row.defVal} />,
    },
    {
      key: 'desc',
      title: t('column.desc'),
      width: 240,
      // Built-in parameters are described in the console's language; others as their author wrote them.
      value: (row) =>
        row.builtIn ? t(`builtInDesc.${row.name}`, { defaultValue: row.desc ?? '' }) : row.desc,
    },
    { key: 'editable', title: t('column.editable'), width: 80, format: 'boolean', align: 'center' },
    { key: 'isPublic', title: t('column.isPublic'), width: 80, format: 'boolean', align: 'center' },
    {
      key: 'group',
      title: t('column.group'),
      width: 110,
      sortable: true,
      value: (row) => groupLabel(row.group, t),
      render: (row) =>
        row.group ? (
          <Tag color={row.group === 'feature' ? 'blue' : row.group === 'setting' ? 'cyan' : undefined}>
            {groupLabel(row.group, t)}
          </Tag>
        ) : (
          '-'
        ),
    },
    { key: 'updatedAt', title: t('column.updatedAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'name', label: t('column.name'), maxLength: 64 },
    { kind: 'select', name: 'group', label: t('column.group'), options: groups },
  ];

  return (
    <CrudPage<ParamListRow, typeof paramForm>
      id="params"
      title={t('title')}
      rowKey="id"
      query={api.params.queryPageByName}
      columns={columns}
      search={search}
      resource={crudResource({ save: api.params.save, update: api.params.update, del: api.params.del })}
      form={{
        schema: paramForm,
        label: (field) => t(`column.${field}`),
        testId: 'param',
        title: { create: t('dialog.create'), edit: t('dialog.edit') },
        defaults: { valType: 'string', editable: true, isPublic: false },
        toForm: ({ name, valType, val, cls, defVal, desc, editable, group, isPublic }) => ({
          name,
          valType,
          val,
          cls,
          defVal,
          desc,
          editable,
          group,
          isPublic,
        }),
        fields: ({ form, rule, row }) => (
          <ParamFormFields form={form} rule={rule} groups={groups} builtIn={row?.builtIn ?? false} />
        ),
        editable: (row) => row.abilities.update,
      }}
      remove={{
        name: (row) => row.name,
        when: (row) => row.abilities.delete,
      }}
    />
  );
}

/** A value as its type reads: a tag for booleans, monospace for JSON, text otherwise. */
function ParamValue({ row, value }: { row: ParamListRow; value: string | null }) {
  if (row.valType === 'boolean' && (value === 'true' || value === 'false')) {
    return <Tag color={value === 'true' ? 'green' : 'default'}>{value}</Tag>;
  }
  return <EllipsisText text={value} code={row.valType === 'json'} />;
}
