import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type SearchField, timeRangeSearchField } from '../../lib/crud/index.ts';

/**
 * Search of both logs: the time range with the quick ranges of spec §9 that can be exported (last week,
 * month, 3 months, year), the user name and, for the operation log, the method.
 */
export function useLogSearchFields({ withMethod }: { withMethod: boolean }): SearchField[] {
  const { t } = useTranslation('logs');
  return useMemo(
    () => [
      timeRangeSearchField(t('search.range')),
      { kind: 'text', name: 'userName', label: t('search.userName'), maxLength: 64 },
      ...(withMethod
        ? [{ kind: 'text', name: 'methodName', label: t('search.methodName'), maxLength: 128 } as const]
        : []),
    ],
    [t, withMethod],
  );
}
