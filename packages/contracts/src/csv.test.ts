import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvFile, csvLine, toCsv } from './csv.ts';

describe('CSV of the server and the console', () => {
  it('quotes cells with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('中文')).toBe('中文');
    expect(csvCell('{"a":1}')).toBe('"{""a"":1}"');
  });

  it('writes numbers as they are and empty cells for missing values', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvLine([1, null, 'x'])).toBe('1,,x\r\n');
  });

  it('keeps text from running as a spreadsheet formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1+1`).replace(/^"/, '').startsWith(`'${start}`), JSON.stringify(start)).toBe(
        true,
      );
    }
    expect(csvCell('=SUM(A1,A2)')).toBe(`"'=SUM(A1,A2)"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('streams the file: mark and header first, then each batch', async () => {
    async function* batches() {
      yield [{ n: 1 }, { n: 2 }];
      yield [];
      yield [{ n: 3 }];
    }
    const chunks: string[] = [];
    for await (const chunk of csvFile(['N', 'Twice'], batches(), (r) => [r.n, r.n * 2])) chunks.push(chunk);
    expect(chunks).toEqual([`${CSV_BOM}N,Twice\r\n`, '1,2\r\n2,4\r\n', '3,6\r\n']);
    expect(CSV_BOM).toBe('\uFEFF');
  });

  it('starts with the UTF-8 byte-order mark and ends lines with CRLF', () => {
    const csv = toCsv(['名称', 'Value'], [['a', 1]]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe('\uFEFF名称,Value\r\na,1\r\n');
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('keeps spreadsheets from running text as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});
