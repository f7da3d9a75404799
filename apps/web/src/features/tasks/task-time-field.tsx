import { SchemaField } from '../../lib/crud/index.ts';
import { ConsoleDatePicker } from '../../lib/form/console-date-picker.ts';
import { pickedTime, pickerValue } from '../../lib/form/date-time-value.ts';
import { DATE_TIME_FORMAT } from '../../lib/i18n/date-format.ts';

/**
 * One end of a task's or an authorisation's time range, kept in the form as ISO text (what the shared
 * schemas read) and chosen with a date-time picker. Each end is checked again when the other changes
 * ("choose a time range", "end after start" are the range's messages).
 */
export function TaskTimeField({ name, testId }: { name: 'startTime' | 'endTime'; testId: string }) {
  return (
    <SchemaField
      name={name}
      required
      dependencies={[name === 'startTime' ? 'endTime' : 'startTime']}
      getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
      normalize={pickedTime}
    >
      <ConsoleDatePicker
        showTime
        format={DATE_TIME_FORMAT}
        style={{ width: '100%' }}
        data-testid={`${testId}-${name}`}
      />
    </SchemaField>
  );
}
