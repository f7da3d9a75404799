import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvFile, csvLine } from './csv.ts';

describe('csv', () => {
  it('quotes cells with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('中文')).toBe('中文');
  });

  it('writes numbers as they are and empty cells for missing values', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
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
});
