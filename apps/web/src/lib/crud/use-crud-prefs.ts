import { useState } from 'react';
import { readJson, writeJson } from '../store/storage.ts';
import type { CrudColumn } from './types.ts';

/** Table row density: the console's size, or denser. */
export type Density = 'default' | 'middle' | 'small';

interface Prefs {
  hidden?: string[];
  density?: Density;
}

/** The user's column choice and density of one page, remembered in the browser. */
export function useCrudPrefs<Row>(id: string, columns: readonly CrudColumn<Row>[]) {
  const key = `uiot.crud.${id}`;
  const [prefs, setPrefs] = useState<Prefs>(() => readJson<Prefs>('local', key) ?? {});
  const update = (change: Prefs) =>
    setPrefs((current) => {
      const next = { ...current, ...change };
      writeJson('local', key, next);
      return next;
    });
  const defaultHidden = columns.filter((column) => column.defaultHidden).map((column) => column.key);
  const hidden = prefs.hidden ?? defaultHidden;
  return {
    hidden,
    defaultHidden,
    setHidden: (next: string[]) => update({ hidden: next }),
    visibleColumns: columns.filter((column) => !hidden.includes(column.key)),
    density: prefs.density ?? 'default',
    setDensity: (density: Density) => update({ density }),
  };
}
