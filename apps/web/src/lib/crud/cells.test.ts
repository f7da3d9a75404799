import { describe, expect, it } from 'vitest';
import { rowsToCsv } from './cells.ts';
import type { CrudColumn } from './types.ts';

describe('CSV of table rows', () => {
  it('exports the given columns of rows, with titles, formats and values, leaving out noExport ones', () => {
    interface Row {
      name: string;
      editable: boolean;
      val: string | null;
      count: number;
      tags: string[];
    }
    const columns: CrudColumn<Row>[] = [
      { key: 'name', title: '名称' },
      { key: 'editable', title: 'Editable', format: 'boolean' },
      { key: 'val', title: 'Value' },
      { key: 'count', title: 'Count' },
      { key: 'tags', title: 'Tags', value: (row) => row.tags.join(', ') },
      { key: 'secret', title: 'Secret', noExport: true },
    ];
    const rows: Row[] = [
      { name: 'Strong', editable: true, val: null, count: -2, tags: ['a', 'b'] },
      { name: 'Map', editable: false, val: '{"zoom":3}', count: 0, tags: [] },
    ];
    expect(rowsToCsv(columns, rows, { yes: '是', no: '否' })).toBe(
      '\uFEFF名称,Editable,Value,Count,Tags\r\n' +
        'Strong,是,,-2,"a, b"\r\n' +
        'Map,否,"{""zoom"":3}",0,\r\n',
    );
  });
});
