import type { DeviceRow } from '@uiot/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type DeviceCandidate,
  DeviceCandidateView,
  deviceCandidate,
  useDeviceSearch,
} from '../device-search.tsx';

/** Only unregistered devices can replace one. */
const UNREGISTERED = { regist: 'false' } as const;

/**
 * The replacement of a one-click lock replacement (spec §4): an unregistered main device other than the
 * one replaced, that the user may operate (the server's `abilities.operate`: the procedure registers it and
 * sends it the password), searched by name, code or IMEI on the server.
 */
export function ReplacementSelect({
  device,
  value,
  onChange,
  disabled,
}: {
  device: DeviceRow;
  value: string | undefined;
  onChange: (id: string | undefined) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('ledger');
  const candidates = useDeviceSearch(UNREGISTERED);
  const rows: DeviceRow[] = candidates.rows.filter(
    (row) => row.id !== device.id && !row.regist && row.abilities.operate,
  );

  return (
    <Select<string, DeviceCandidate>
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      showSearch={{ filterOption: false, onSearch: candidates.search, searchValue: candidates.typed }}
      allowClear
      disabled={disabled}
      loading={candidates.isFetching}
      placeholder={t('replacement.choose')}
      notFoundContent={candidates.isFetching ? t('replacement.searching') : t('replacement.noCandidates')}
      options={rows.map(deviceCandidate)}
      optionRender={(option) => <DeviceCandidateView option={option.data} />}
      style={{ width: '100%' }}
      data-testid="replacement-select"
    />
  );
}
