import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LedgerTable } from './ledger-table.tsx';
import { UnitSider } from './unit-sider.tsx';

/**
 * The ledger by operation unit (spec §2 /device/new-ledger): the unit tree beside the ledger; choosing a
 * unit shows its devices and those of the units below it.
 */
export function UnitLedgerPage() {
  const { t } = useTranslation('ledger');
  const [unitId, setUnitId] = useState<string | undefined>();
  return (
    <LedgerTable
      id="unit-ledger"
      title={t('unitTitle')}
      unitId={unitId}
      sider={<UnitSider selected={unitId} onSelect={setUnitId} />}
    />
  );
}
