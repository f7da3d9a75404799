import dayjsConfig from '@rc-component/picker/generate/dayjs';
import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { consoleNow, sameWallClock } from '../console-time.ts';

/**
 * antd's dayjs config for pickers, on the station's clock (UTC+8, spec §9): "now" (its button, today's
 * cell, the month a picker opens on, the time a date starts from) is the station's, and a typed text is
 * the station's wall clock, as the values given (`pickerValue`, console clocks) are. A picked value means
 * the instant `instantOf` / `pickedTime` reads from its fields.
 */
export const consolePickerConfig: typeof dayjsConfig = {
  ...dayjsConfig,
  getNow: consoleNow,
  getFixedDate: (fixed) => sameWallClock(dayjsConfig.getFixedDate(fixed)),
  locale: {
    ...dayjsConfig.locale,
    parse: (locale, text, formats) => {
      const parsed = dayjsConfig.locale.parse(locale, text, formats);
      return parsed && sameWallClock(parsed).locale(parsed.locale());
    },
  },
};

/** antd's `DatePicker` (with `.RangePicker`, `.TimePicker` …) on the station's clock: every console picker. */
export const ConsoleDatePicker = DatePicker.generatePicker<Dayjs>(consolePickerConfig);
