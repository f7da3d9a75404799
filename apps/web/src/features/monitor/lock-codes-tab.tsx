import { api, type LockCodeRow } from '@uiot/contracts';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../lib/crud/index.ts';
import { call } from '../../lib/request/index.ts';
import { lockCodeColumns } from '../devices/ledger/lock-code-columns.tsx';

/**
 * The lock codes of a device (spec §3 Lock code), to read: they are kept in the device ledger. Test ids
 * `monitorLockCodes-*`.
 */
export function LockCodesTab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('ledger');
  return (
    <CrudPage<LockCodeRow>
      id="monitorLockCodes"
      title={t('lockCode.title')}
      rowKey="id"
      load={(_, options) => call(api.lockCode.queryByDevice, { query: { deviceId } }, options)}
      fixedQuery={{ deviceId }}
      columns={lockCodeColumns(t)}
    />
  );
}
