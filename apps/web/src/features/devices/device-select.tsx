import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DeviceCandidate,
  type DeviceFilter,
  deviceCandidate,
  deviceSearchSelectProps,
  useDeviceSearch,
} from './device-search.tsx';

/**
 * A chooser of one main device of the ledger (value: its id, null when cleared), searched on the server as
 * the user types, within `filter`. `known` names the stored or preset choice, so that it reads by name
 * before (or without) being found.
 */
export function DeviceSelect({
  value,
  onChange,
  known,
  filter,
  disabled,
  placeholder,
  testId,
  onNamed,
}: {
  value?: string | null;
  onChange?: (id: string | null) => void;
  known?: { id: string; name: string } | undefined;
  filter?: DeviceFilter;
  disabled?: boolean;
  placeholder?: string;
  testId: string;
  /** Told the device chosen with its name (a dialog that names it afterwards). */
  onNamed?: (device: { id: string; name: string } | null) => void;
}) {
  const { t } = useTranslation('crud');
  const found = useDeviceSearch(filter, !disabled);
  // The chosen device as found, kept while other searches replace the devices found.
  const [chosen, setChosen] = useState<DeviceCandidate | null>(() =>
    known ? { value: known.id, label: known.name, where: '' } : null,
  );
  const candidates = found.rows.map(deviceCandidate);
  const options: DeviceCandidate[] =
    value && !candidates.some((candidate) => candidate.value === value)
      ? [...candidates, chosen?.value === value ? chosen : { value, label: value, where: '' }]
      : candidates;

  const change = (id: string | undefined) => {
    const candidate = candidates.find((c) => c.value === id);
    if (candidate) setChosen(candidate);
    onNamed?.(candidate ? { id: candidate.value, name: candidate.label } : null);
    onChange?.(id ?? null);
  };

  return (
    <Select<string | undefined, DeviceCandidate>
      value={value ?? undefined}
      onChange={change}
      {...deviceSearchSelectProps(found, t('search.noMatch'))}
      disabled={disabled}
      placeholder={placeholder}
      options={options}
      data-testid={testId}
    />
  );
}
