import { api, type DevicePasswordRow } from '@uiot/contracts';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, type SearchField } from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { call } from '../../lib/request/index.ts';
import { DevicePasswordDialog, type ShownPassword } from './device-password-dialog.tsx';
import { SetDevicePasswordDialog } from './set-device-password-dialog.tsx';
import { unitOptions, useUnitTree } from './unit-tree.ts';

/**
 * Permanent device passwords (spec §2 /device/device-password): every device and whether it has a permanent
 * password. The password itself is fetched only on "show" (each view is in the operation log), shown in a
 * dialog and forgotten when it closes: never kept in the query cache or in storage.
 */
export function DevicePasswordsPage() {
  const { t } = useTranslation('devicePassword');
  const units = useUnitTree();
  const unitTree = useMemo(() => unitOptions(units.data ?? []), [units.data]);
  const [shown, setShown] = useState<Shown<ShownPassword> | null>(null);
  const [setting, setSetting] = useState<Shown<{ row: DevicePasswordRow; refresh: () => void }> | null>(null);

  const columns: CrudColumn<DevicePasswordRow>[] = [
    { key: 'deviceName', title: t('column.deviceName'), width: 170, sortable: true, fixed: 'left' },
    { key: 'unitName', title: t('column.unitName'), width: 150, sortable: true },
    { key: 'typeName', title: t('column.typeName'), width: 130, sortable: true },
    { key: 'imei', title: t('column.imei'), width: 155, sortable: true, format: 'code' },
    {
      key: 'regist',
      title: t('column.regist'),
      width: 120,
      sortable: true,
      value: (row) => (row.regist ? t('regist.yes') : t('regist.no')),
      render: (row) =>
        row.regist ? <Tag color="green">{t('regist.yes')}</Tag> : <Tag>{t('regist.no')}</Tag>,
    },
    {
      key: 'hasPassword',
      title: t('column.hasPassword'),
      width: 100,
      sortable: true,
      value: (row) => (row.hasPassword ? t('hasPassword.yes') : t('hasPassword.no')),
      render: (row) =>
        row.hasPassword ? (
          <Tag color="blue">{t('hasPassword.yes')}</Tag>
        ) : (
          <Tag color="default">{t('hasPassword.no')}</Tag>
        ),
    },
    { key: 'updatedBy', title: t('column.updatedBy'), width: 115, sortable: true },
    { key: 'updatedAt', title: t('column.updatedAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'keyword', label: t('search.keyword'), maxLength: 64 },
    { kind: 'treeSelect', name: 'unitId', label: t('column.unitName'), treeData: unitTree },
    { kind: 'yesNo', name: 'hasPassword', label: t('column.hasPassword') },
  ];

  return (
    <>
      <CrudPage<DevicePasswordRow>
        id="devicePasswords"
        title={t('title')}
        rowKey="deviceId"
        query={api.devicePassword.queryPage}
        columns={columns}
        search={search}
        actionsWidth={150}
        rowActions={[
          {
            key: 'show',
            label: t('action.show'),
            endpoint: api.devicePassword.view,
            when: (row) => row.hasPassword,
            run: async (row, ctx) => {
              const { password } = await call(
                api.devicePassword.view,
                { query: { deviceId: row.deviceId } },
                { ...ctx.callOptions, canCancel: false },
              );
              setShown(show({ deviceName: row.deviceName, password }));
            },
          },
          {
            key: 'set',
            label: t('action.set'),
            endpoint: api.devicePassword.save,
            run: (row, ctx) => setSetting(show({ row, refresh: ctx.refresh })),
          },
        ]}
      />
      {shown && (
        <DevicePasswordDialog
          key={shown.opening}
          shown={shown.value}
          open={shown.open}
          onClose={() => setShown(hide)}
          // The password leaves memory with the dialog.
          afterClose={() => setShown(null)}
        />
      )}
      {setting && (
        <SetDevicePasswordDialog
          key={setting.opening}
          device={setting.value.row}
          open={setting.open}
          onClose={() => setSetting(hide)}
          onSaved={setting.value.refresh}
        />
      )}
    </>
  );
}
