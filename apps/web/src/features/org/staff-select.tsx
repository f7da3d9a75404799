import { useQuery } from '@tanstack/react-query';
import { api } from '@uiot/contracts';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectOption } from '../../lib/crud/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';

/** The organisation's active staff as forms choose them (a key's holder, a device's, an authorisation's). */

interface StaffOption {
  value: string;
  label: string;
}

/** Active staff as select options (value: the staff id); asked again on each opening of a form. */
export function useStaffOptions(): { options: StaffOption[]; isLoading: boolean } {
  const staff = useQuery({
    ...endpointQuery(api.staff.getAll, undefined, { noOverlay: true, silent: true }),
    staleTime: 0,
  });
  const options = useMemo(
    () => (staff.data ?? []).map((member) => ({ value: member.id, label: member.name })),
    [staff.data],
  );
  return { options, isLoading: staff.isLoading };
}

/**
 * A chooser of one active staff member, searchable by name (value: the staff id, null when cleared).
 * `known` is the stored choice with its stored name, shown even when the list does not hold it (a staff
 * member disabled since).
 */
export function StaffSelect({
  value,
  onChange,
  placeholder,
  known,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  placeholder?: string;
  known?: SelectOption & { value: string };
  testId: string;
}) {
  const { t } = useTranslation('crud');
  const staff = useStaffOptions();
  const options =
    known && !staff.options.some((option) => option.value === known.value)
      ? [...staff.options, known]
      : staff.options;
  return (
    <Select
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      options={options}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={staff.isLoading}
      placeholder={placeholder}
      notFoundContent={t('search.noMatch')}
      data-testid={testId}
    />
  );
}
