import { useTranslation } from 'react-i18next';
import { OperationRecords } from './operation-records.tsx';

/**
 * Operation records (spec §2 /task/operation-records and /data-statistics/operation-record: one page under
 * two menus, the same permission and data): every opening and closing of a lock, live, exported for a time
 * range of at most a year (spec §5).
 */
export function OperationRecordsPage() {
  const { t } = useTranslation('tasks');
  return <OperationRecords id="operationRecords" title={t('operation.title')} exportable />;
}
