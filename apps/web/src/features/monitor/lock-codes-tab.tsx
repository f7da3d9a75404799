import { api, type LockCodeRow } from '@uiot/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage } from '../../lib/crud/index.ts';
import { call } from '../../lib/request/index.ts';

/**
 * The lock codes of a device (spec §3 Lock code), to read: they are kept in the device ledger. Test ids
 * `monitorLockCodes-*`.
 */
export function LockCodesTab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('monitor');
  const columns: CrudColumn<LockCodeRow>[] = [
    { key: 'rfidCode', title: t('lockCode.rfidCode'), width: 150, format: 'code', fixed: 'left' },
    { key: 'dnbs', title: t('lockCode.dnbs'), width: 170 },
    { key: 'rfidType', title: t('lockCode.rfidType'), width: 120 },
    { key: 'blueAddr', title: t('lockCode.blueAddr'), width: 170, format: 'code' },
    {
      key: 'effect',
      title: t('lockCode.effect'),
      width: 100,
      value: (row) => (row.effect ? t('lockCode.on') : t('lockCode.off')),
      render: (row) => (
        <Tag color={row.effect ? 'green' : 'default'}>
          {row.effect ? t('lockCode.on') : t('lockCode.off')}
        </Tag>
      ),
    },
    { key: 'effectiveTime', title: t('lockCode.effectiveTime'), width: 165, format: 'dateTime' },
    { key: 'expirationTime', title: t('lockCode.expirationTime'), width: 165, format: 'dateTime' },
    { key: 'remark', title: t('lockCode.remark'), width: 200 },
  ];
  return (
    <CrudPage<LockCodeRow>
      id="monitorLockCodes"
      title={t('lockCode.title')}
      rowKey="id"
      load={(_, options) => call(api.lockCode.queryByDevice, { query: { deviceId } }, options)}
      fixedQuery={{ deviceId }}
      columns={columns}
    />
  );
}
