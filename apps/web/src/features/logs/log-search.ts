import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchField } from '../../lib/crud/index.ts';

/** The search field holding the time range; "export all" needs it (spec §5). */
export const LOG_RANGE_FIELD = 'range';

/**
 * Search of both logs: the time range with the quick ranges of spec §9 (last week, month, 3 months, year),
 * the user name and, for the operation log, the method.
 */
export function useLogSearchFields({ withMethod }: { withMethod: boolean }): SearchField[] {
  const { t } = useTranslation('logs');
  return useMemo(
    () => [
      {
        kind: 'dateTimeRange',
        name: LOG_RANGE_FIELD,
        label: t('search.range'),
        from: 'startTime',
        to: 'endTime',
        presets: ['week', 'month', 'threeMonths', 'year'],
      },
      { kind: 'text', name: 'userName', label: t('search.userName'), maxLength: 64 },
      ...(withMethod
        ? [{ kind: 'text', name: 'methodName', label: t('search.methodName'), maxLength: 128 } as const]
        : []),
    ],
    [t, withMethod],
  );
}
