import { useQuery } from '@tanstack/react-query';
import { api, type DeviceRow, type EndpointQuery } from '@uiot/contracts';
import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { endpointQuery } from '../../lib/request/index.ts';
import './device-search.css';

/** Wait after the last key before searching. */
const SEARCH_DELAY_MS = 300;
/** Devices offered at once: the ledger holds thousands, so choosers search it on the server. */
const CANDIDATES = 20;

/** What a chooser narrows the ledger to (registered devices only, say). */
export type DeviceFilter = Omit<
  EndpointQuery<typeof api.device.queryPage>,
  'keyword' | 'pageIndex' | 'pageSize'
>;

/**
 * Main devices of the ledger for a chooser, searched on the server by name, code or IMEI as the user types
 * (`search` is the select's `onSearch`), within `filter`; nothing is asked while not `enabled` (a chooser whose
 * device is fixed).
 */
export function useDeviceSearch(filter: DeviceFilter = {}, enabled = true) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const found = useQuery({
    ...endpointQuery(
      api.device.queryPage,
      { ...filter, ...(keyword ? { keyword } : {}), pageIndex: 1, pageSize: CANDIDATES },
      { noOverlay: true, silent: true },
    ),
    enabled,
  });
  return {
    typed,
    search: setTyped,
    rows: found.data?.rows ?? [],
    isFetching: found.isFetching,
  };
}

/** A device offered by a chooser; `where` (its unit, type and IMEI) tells devices of one name apart. */
export type DeviceCandidate = { value: string; label: string; where: string };

export const deviceCandidate = (row: DeviceRow): DeviceCandidate => ({
  value: row.id,
  label: row.name,
  where: [row.unitName, row.typeName, row.imei].filter(Boolean).join(' · '),
});

/** A device in a chooser's list: its name, and below it where it is (a select's `optionRender`). */
export function DeviceCandidateView({ option }: { option: DeviceCandidate }) {
  return (
    <div className="uiot-device-candidate">
      <Typography.Text ellipsis>{option.label}</Typography.Text>
      {option.where && (
        <Typography.Text type="secondary" ellipsis className="uiot-device-candidate__where">
          {option.where}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * What a device chooser's select takes from its search (one device or several): the server searched as the
 * user types, the search cleared once one is chosen, each candidate with where it is.
 */
export function deviceSearchSelectProps(found: ReturnType<typeof useDeviceSearch>, noMatch: string) {
  return {
    onSelect: () => found.search(''),
    showSearch: { filterOption: false, onSearch: found.search, searchValue: found.typed },
    allowClear: true,
    loading: found.isFetching,
    notFoundContent: noMatch,
    optionRender: (option: { data: DeviceCandidate }) => <DeviceCandidateView option={option.data} />,
    style: { width: '100%' },
  } as const;
}
