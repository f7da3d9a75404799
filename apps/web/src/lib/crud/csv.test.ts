import { describe, expect, it } from 'vitest';
import { rowsToCsv } from './cells.ts';
import { CSV_BOM, csvCell, toCsv } from './csv.ts';
import type { CrudColumn } from './types.ts';

describe('CSV written in the browser', () => {
  it('starts with the UTF-8 byte-order mark and ends lines with CRLF', () => {
    const csv = toCsv(['名称', 'Value'], [['a', 1]]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe('\uFEFF名称,Value\r\na,1\r\n');
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('quotes cells with commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('{"a":1}')).toBe('"{""a"":1}"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes empty cells for missing values, numbers as they are', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('keeps spreadsheets from running text as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });

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
