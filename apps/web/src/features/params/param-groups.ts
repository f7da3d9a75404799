import { useQuery } from '@tanstack/react-query';
import { api } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { endpointQuery } from '../../lib/request/index.ts';

/** Groups the system creates: the feature flags of spec §6 and the named settings of spec §7. */
const KNOWN_GROUPS = ['feature', 'setting'] as const;

function isKnownGroup(group: string): group is (typeof KNOWN_GROUPS)[number] {
  return (KNOWN_GROUPS as readonly string[]).includes(group);
}

/** A group's title: translated for the system's groups, as entered otherwise. */
export function groupLabel(group: string | null, t: TFunction<'params'>): string {
  if (!group) return '';
  return isKnownGroup(group) ? t(`group.${group}`) : group;
}

/** Every group in use (the system's first), for the search and the dialog. */
export function useParamGroups(t: TFunction<'params'>): { value: string; label: string }[] {
  const { data } = useQuery({
    ...endpointQuery(api.params.getAll, undefined, { noOverlay: true, silent: true }),
    staleTime: 30_000,
  });
  return useMemo(() => {
    const used = new Set<string>(KNOWN_GROUPS);
    for (const row of data ?? []) if (row.group) used.add(row.group);
    return [...used].map((group) => ({ value: group, label: groupLabel(group, t) }));
  }, [data, t]);
}
