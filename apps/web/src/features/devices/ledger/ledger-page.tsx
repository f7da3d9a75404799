import { useTranslation } from 'react-i18next';
import { LedgerTable } from './ledger-table.tsx';

/** The device ledger (spec §2 /device/device): every main device, searchable by unit, type and more. */
export function LedgerPage() {
  const { t } = useTranslation('ledger');
  return <LedgerTable id="ledger" title={t('title')} />;
}
