import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DeviceCandidate,
  deviceCandidate,
  deviceSearchSelectProps,
  useDeviceSearch,
} from './device-search.tsx';

/**
 * A chooser of several main devices of the ledger (value: their ids), searched on the server as the user
 * types. `known` names the stored choice, so that it reads by name before (or without) being found.
 */
export function DevicesSelect({
  value = [],
  onChange,
  known = [],
  placeholder,
  testId,
  onNames,
}: {
  value?: string[];
  onChange?: (ids: string[]) => void;
  known?: readonly { id: string; name: string }[];
  placeholder?: string;
  testId: string;
  /** Told the names of the devices chosen so far, whenever one is added (a form that lists them). */
  onNames?: (names: ReadonlyMap<string, string>) => void;
}) {
  const { t } = useTranslation('crud');
  const found = useDeviceSearch();
  // The names of the devices chosen, kept while other searches replace the devices found.
  const [names, setNames] = useState(() => new Map(known.map((device) => [device.id, device.name])));
  const candidates = found.rows.map(deviceCandidate);
  const options: DeviceCandidate[] = [
    ...candidates,
    ...value
      .filter((id) => !candidates.some((candidate) => candidate.value === id))
      .map((id) => ({ value: id, label: names.get(id) ?? id, where: '' })),
  ];

  const change = (ids: string[]) => {
    const added = candidates.filter(
      (candidate) => ids.includes(candidate.value) && !names.has(candidate.value),
    );
    if (added.length > 0) {
      const next = new Map([...names, ...added.map((c) => [c.value, c.label] as const)]);
      setNames(next);
      onNames?.(next);
    }
    onChange?.(ids);
  };

  return (
    <Select<string[], DeviceCandidate>
      mode="multiple"
      value={value}
      onChange={change}
      {...deviceSearchSelectProps(found, t('search.noMatch'))}
      maxTagCount="responsive"
      placeholder={placeholder}
      options={options}
      data-testid={testId}
    />
  );
}
