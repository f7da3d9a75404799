import type { LockCodeRow } from '@uiot/contracts';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { CrudColumn } from '../../../lib/crud/index.ts';

/**
 * The columns of a device's lock codes (spec §3 Lock code), in the ledger's texts: shown in the ledger's
 * tab and, to read, in the device monitor.
 */
export function lockCodeColumns(t: TFunction<'ledger'>): CrudColumn<LockCodeRow>[] {
  return [
    { key: 'rfidCode', title: t('ledger:lockCode.rfidCode'), width: 150, format: 'code', fixed: 'left' },
    { key: 'dnbs', title: t('ledger:lockCode.dnbs'), width: 170 },
    { key: 'rfidType', title: t('ledger:lockCode.rfidType'), width: 110 },
    { key: 'blueAddr', title: t('ledger:lockCode.blueAddr'), width: 170, format: 'code' },
    {
      key: 'effect',
      title: t('ledger:lockCode.effect'),
      width: 90,
      format: 'boolean',
      render: (row) => (
        <Tag color={row.effect ? 'green' : 'default'}>
          {row.effect ? t('ledger:lockCode.on') : t('ledger:lockCode.off')}
        </Tag>
      ),
    },
    { key: 'effectiveTime', title: t('ledger:lockCode.effectiveTime'), width: 165, format: 'dateTime' },
    { key: 'expirationTime', title: t('ledger:lockCode.expirationTime'), width: 165, format: 'dateTime' },
    { key: 'remark', title: t('ledger:lockCode.remark'), width: 180 },
  ];
}
