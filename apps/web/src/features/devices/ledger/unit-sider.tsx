import { useTranslation } from 'react-i18next';
import { TreeSider } from '../../../lib/crud/index.ts';
import { unitMatches, useUnitTree } from '../unit-tree.ts';

/**
 * The operation unit tree left of the ledger (spec §2 /device/new-ledger): choosing a unit shows its
 * devices and those of the units below it.
 */
export function UnitSider({
  selected,
  onSelect,
}: {
  selected: string | undefined;
  onSelect: (unitId: string | undefined) => void;
}) {
  const { t } = useTranslation('ledger');
  return (
    <TreeSider
      tree={useUnitTree()}
      matches={unitMatches}
      selected={selected}
      onSelect={onSelect}
      texts={{
        title: t('sider.title'),
        all: t('sider.all'),
        search: t('sider.search'),
        noMatch: t('sider.noMatch'),
        none: t('sider.none'),
      }}
      testId="ledger-units"
      nodeTestId="ledger-unit"
    />
  );
}
