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

type StaffSelectProps = {
  placeholder?: string;
  testId: string;
} & (
  | {
      multiple?: false;
      value?: string | null;
      onChange?: (value: string | null) => void;
      known?: SelectOption & { value: string };
    }
  | {
      /** Several staff members (an operator team): the value is their ids, [] when cleared. */
      multiple: true;
      value?: string[];
      onChange?: (value: string[]) => void;
      known?: readonly (SelectOption & { value: string })[];
    }
);

/**
 * A chooser of one active staff member, or of several with `multiple`, searchable by name (value: the staff
 * id, null when cleared; with `multiple` the ids). `known` is the stored choice with its stored names, shown
 * even when the list does not hold it (a staff member disabled since).
 */
export function StaffSelect(props: StaffSelectProps) {
  const { placeholder, testId } = props;
  const { t } = useTranslation('crud');
  const staff = useStaffOptions();
  const known = props.multiple ? (props.known ?? []) : props.known ? [props.known] : [];
  const missing = known.filter((option) => !staff.options.some((item) => item.value === option.value));
  const options = missing.length > 0 ? [...staff.options, ...missing] : staff.options;
  const common = {
    options,
    allowClear: true,
    showSearch: { optionFilterProp: 'label' },
    loading: staff.isLoading,
    placeholder,
    notFoundContent: t('search.noMatch'),
    'data-testid': testId,
  };
  if (props.multiple) {
    const { value, onChange } = props;
    return (
      <Select<string[]>
        {...common}
        mode="multiple"
        maxTagCount="responsive"
        value={value ?? []}
        onChange={(next) => onChange?.(next ?? [])}
        style={{ width: '100%' }}
      />
    );
  }
  const { value, onChange } = props;
  return (
    <Select<string | undefined>
      {...common}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
    />
  );
}
