import { type AlarmState, flattenMenus, MENU_CATALOGUE } from '@uiot/contracts';

const RECORDS_PATH = flattenMenus(MENU_CATALOGUE).find((menu) => menu.name === 'WarningMessage')?.path;

/** The alarm records, as the menu catalogue places them, opened on one state if given. */
export function alarmRecordsPath(state?: AlarmState): string {
  if (!RECORDS_PATH) throw new Error('menu WarningMessage is not in the catalogue');
  return state ? `${RECORDS_PATH}?${new URLSearchParams({ state })}` : RECORDS_PATH;
}
