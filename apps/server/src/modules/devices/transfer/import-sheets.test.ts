import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { columnKeyOf, headerTitle, IMPORT_COLUMNS, normaliseTitle, UNIT_COLUMNS } from './import-sheets.ts';
import { LEDGER_COLUMNS } from './ledger-export.ts';

describe('sheet columns', () => {
  it('have titles no two columns of a sheet share, in any language', () => {
    for (const columns of [...Object.values(IMPORT_COLUMNS), LEDGER_COLUMNS]) {
      const titles = columns.flatMap((c) => [
        ...new Set(LANGUAGES.map((lang) => normaliseTitle(c.title[lang]))),
      ]);
      expect(new Set(titles).size).toBe(titles.length);
      expect(new Set(columns.map((c) => c.key)).size).toBe(columns.length);
    }
  });

  it('are found by the key in the note, else by the title in any language', () => {
    expect(columnKeyOf(UNIT_COLUMNS, 'Whatever', 'parentPath')).toBe('parentPath');
    expect(columnKeyOf(UNIT_COLUMNS, '', 'Author:\nmenuName')).toBe('menuName');
    for (const lang of LANGUAGES) {
      expect(columnKeyOf(UNIT_COLUMNS, headerTitle(UNIT_COLUMNS[0]!, lang), '')).toBe('name');
    }
    expect(columnKeyOf(UNIT_COLUMNS, ' menu NAME ', '')).toBe('menuName');
    expect(columnKeyOf(UNIT_COLUMNS, 'Unknown', 'nothing')).toBeUndefined();
    expect(columnKeyOf(UNIT_COLUMNS, '', '')).toBeUndefined();
  });

  it('mark required columns in the header', () => {
    expect(headerTitle(UNIT_COLUMNS[0]!, 'en')).toBe('Name *');
    expect(headerTitle(UNIT_COLUMNS[2]!, 'zh-CN')).toBe('菜单名称');
  });

  it('of the export include every device template column, with the same key and title', () => {
    for (const column of IMPORT_COLUMNS.device) expect(LEDGER_COLUMNS).toContainEqual(column);
  });
});
