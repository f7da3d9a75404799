import {
  AUTHORIZATION_OBJECTS,
  AUTHORIZATION_STATES,
  type AuthorizationState,
  api,
  type FixedAuthorizationForm,
  type FixedAuthorizationRow,
  fixedAuthorizationForm,
} from '@uiot/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  type SearchField,
  type SelectOption,
} from '../../lib/crud/index.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { FixedAuthorizationFields } from './fixed-authorization-fields.tsx';
import { NamesCell } from './names-cell.tsx';
import './tasks.css';

const STATE_COLORS: Record<AuthorizationState, string> = {
  active: 'green',
  upcoming: 'blue',
  expired: 'default',
};

/** The devices of an authorisation: all of them, or the first names and how many more. */
function DevicesCell({ row }: { row: FixedAuthorizationRow }) {
  const { t } = useTranslation('tasks');
  if (row.allDevice) return <Tag color="purple">{t('fixedAuthorization.allDevices')}</Tag>;
  return (
    <NamesCell
      items={row.devices}
      more={(count) => t('fixedAuthorization.moreDevices', { count })}
      testId="fixedAuthorizations-devices"
    />
  );
}

/**
 * Fixed authorisations (spec §2 /task/fixed-authorize, §3 Fixed authorization): devices given to a staff
 * member or a department, for a time range or forever, all devices or a list. Who may open what with them
 * is the server's decision (docs/lock-tasks.md, "Who may open").
 */
export function FixedAuthorizationsPage() {
  const { t } = useTranslation('tasks');
  const objectTypeOptions: SelectOption[] = AUTHORIZATION_OBJECTS.map((value) => ({
    value,
    label: t(`fixedAuthorization.objectType.${value}`),
  }));
  const stateOptions: SelectOption[] = AUTHORIZATION_STATES.map((value) => ({
    value,
    label: t(`fixedAuthorization.state.${value}`),
  }));
  const timeRange = (row: FixedAuthorizationRow) =>
    row.forever
      ? t('fixedAuthorization.forever')
      : t('fixedAuthorization.timeRange', {
          start: formatDateTime(row.startTime),
          end: formatDateTime(row.endTime),
        });

  const columns: CrudColumn<FixedAuthorizationRow>[] = [
    {
      key: 'objectType',
      title: t('fixedAuthorization.column.objectType'),
      width: 100,
      value: (row) => t(`fixedAuthorization.objectType.${row.objectType}`),
    },
    {
      key: 'objectName',
      title: t('fixedAuthorization.column.objectName'),
      width: 180,
      sortable: true,
      fixed: 'left',
    },
    {
      key: 'state',
      title: t('fixedAuthorization.column.state'),
      width: 100,
      value: (row) => t(`fixedAuthorization.state.${row.state}`),
      render: (row) => (
        <Tag color={STATE_COLORS[row.state]} data-testid={`fixedAuthorizations-state-${row.state}`}>
          {t(`fixedAuthorization.state.${row.state}`)}
        </Tag>
      ),
    },
    {
      key: 'devices',
      title: t('fixedAuthorization.column.devices'),
      width: 240,
      value: (row) =>
        row.allDevice
          ? t('fixedAuthorization.allDevices')
          : row.devices.map((device) => device.name).join(', '),
      render: (row) => <DevicesCell row={row} />,
    },
    {
      key: 'timeRange',
      title: t('fixedAuthorization.column.timeRange'),
      width: 330,
      sortable: 'startTime',
      value: timeRange,
    },
    { key: 'createdByName', title: t('fixedAuthorization.column.createdByName'), width: 120 },
    {
      key: 'updatedAt',
      title: t('fixedAuthorization.column.updatedAt'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
  ];

  const search: SearchField[] = [
    {
      kind: 'select',
      name: 'objectType',
      label: t('fixedAuthorization.column.objectType'),
      options: objectTypeOptions,
    },
    { kind: 'text', name: 'keyword', label: t('fixedAuthorization.column.objectName'), maxLength: 64 },
    { kind: 'select', name: 'state', label: t('fixedAuthorization.column.state'), options: stateOptions },
  ];

  return (
    <CrudPage<FixedAuthorizationRow, typeof fixedAuthorizationForm>
      id="fixedAuthorizations"
      title={t('fixedAuthorization.title')}
      rowKey="id"
      query={api.fixedAuthorization.queryPage}
      columns={columns}
      search={search}
      actionsWidth={130}
      resource={crudResource<FixedAuthorizationRow, FixedAuthorizationForm>({
        save: api.fixedAuthorization.save,
        update: api.fixedAuthorization.update,
        del: api.fixedAuthorization.del,
        // What the dialog hides is not sent: no times when forever, no devices when all devices.
        body: (values) => ({
          ...values,
          ...(values.forever && { startTime: null, endTime: null }),
          ...(values.allDevice && { deviceIds: [] }),
        }),
      })}
      form={{
        schema: fixedAuthorizationForm,
        label: (field) => t(`fixedAuthorization.column.${field}`),
        testId: 'fixedAuthorization',
        title: { create: t('fixedAuthorization.dialog.create'), edit: t('fixedAuthorization.dialog.edit') },
        defaults: { objectType: 'staff', forever: false, allDevice: false, deviceIds: [] },
        toForm: ({ objectType, objectId, forever, startTime, endTime, allDevice, devices }) => ({
          objectType,
          objectId,
          forever,
          startTime,
          endTime,
          allDevice,
          deviceIds: devices.map((device) => device.id),
        }),
        fields: ({ row, form }) => <FixedAuthorizationFields row={row} form={form} />,
      }}
      remove={{ name: (row) => row.objectName }}
    />
  );
}
