import dayjs from 'dayjs';

/** Spec §9 default date format `yyyy-MM-dd HH:mm:ss`. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_TIME_FORMAT) : String(value);
}
