import { flattenMenus, MENU_CATALOGUE } from '@uiot/contracts';

function pathOf(name: string): string {
  const entry = flattenMenus(MENU_CATALOGUE).find((menu) => menu.name === name);
  if (!entry) throw new Error(`menu ${name} is not in the catalogue`);
  return entry.path;
}

/** The runtime monitor, as the menu catalogue places it. */
export const RUNTIME_PATH = pathOf('MonitorRuntime');

/** The monitor details of a device (hidden route `MonitorRuntimeDetail`, `?deviceId=`). */
export function deviceDetailPath(deviceId: string): string {
  return `${pathOf('MonitorRuntimeDetail')}?${new URLSearchParams({ deviceId })}`;
}
