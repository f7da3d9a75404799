import { useQuery } from '@tanstack/react-query';
import { api, type DeviceRow } from '@uiot/contracts';
import { Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpointQuery } from '../../../lib/request/index.ts';

/** Wait after the last key before searching. */
const SEARCH_DELAY_MS = 300;
const CANDIDATES = 20;

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
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const candidates = useQuery(
    endpointQuery(
      api.device.queryPage,
      { ...(keyword ? { keyword } : {}), regist: 'false', pageIndex: 1, pageSize: CANDIDATES },
      { noOverlay: true, silent: true },
    ),
  );
  const rows: DeviceRow[] = (candidates.data?.rows ?? []).filter(
    (row) => row.id !== device.id && !row.regist && row.abilities.operate,
  );

  return (
    <Select<string>
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
      allowClear
      disabled={disabled}
      loading={candidates.isFetching}
      placeholder={t('replacement.choose')}
      notFoundContent={candidates.isFetching ? t('replacement.searching') : t('replacement.noCandidates')}
      options={rows.map((row) => ({
        value: row.id,
        label: row.name,
        where: [row.unitName, row.typeName, row.imei].filter(Boolean).join(' · '),
      }))}
      optionRender={(option) => (
        <div className="uiot-ledger__candidate">
          <Typography.Text ellipsis>{option.data.label}</Typography.Text>
          {option.data.where && (
            <Typography.Text type="secondary" ellipsis className="uiot-ledger__candidate-where">
              {option.data.where}
            </Typography.Text>
          )}
        </div>
      )}
      style={{ width: '100%' }}
      data-testid="replacement-select"
    />
  );
}
