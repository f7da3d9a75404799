import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sniffFileType, zipEntryNames } from './sniff.ts';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
const text = (s: string) => Buffer.from(s, 'utf8');

/** A stored (uncompressed) zip archive of these entries, as any zip tool writes one. */
function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    directory.push(header, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe('sniffFileType', () => {
  it('recognises PNG, JPEG and PDF by their signatures', () => {
    expect(sniffFileType(PNG)).toBe('png');
    expect(sniffFileType(JPEG)).toBe('jpeg');
    expect(sniffFileType(PDF)).toBe('pdf');
  });

  it('recognises an xlsx workbook as a zip holding the OOXML parts, by its central directory', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet1').addRow(['a', 1]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(zipEntryNames(xlsx)).toEqual(expect.arrayContaining(['[Content_Types].xml', 'xl/workbook.xml']));
    expect(sniffFileType(xlsx)).toBe('xlsx');
    expect(
      sniffFileType(zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' })),
    ).toBe('xlsx');
  });

  it('refuses other zip archives: a docx, a zip without the workbook part, a truncated archive', async () => {
    expect(
      sniffFileType(zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w/>' })),
    ).toBeNull();
    expect(sniffFileType(zipOf({ 'xl/workbook.xml': '<workbook/>' }))).toBeNull();
    const whole = zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
    expect(sniffFileType(whole.subarray(0, whole.length - 30))).toBeNull();
    expect(sniffFileType(Buffer.from('PK\x03\x04nonsense'))).toBeNull();
    expect(zipEntryNames(PNG)).toBeNull();
  });

  it('recognises SVG as UTF-8 text whose root element is <svg>, after a prolog', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect/></svg>';
    expect(sniffFileType(text(svg))).toBe('svg');
    expect(sniffFileType(text(`\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn -->\n${svg}`))).toBe(
      'svg',
    );
    expect(
      sniffFileType(
        text(
          `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n  ${svg}`,
        ),
      ),
    ).toBe('svg');
    expect(sniffFileType(text('<svg/>'))).toBe('svg');
  });

  it('refuses text that is not an SVG drawing: HTML, another root, svg inside, NUL, bad UTF-8', () => {
    for (const content of [
      '<html><body><svg></svg></body></html>',
      '<?xml version="1.0"?><svgx/>',
      '<?xml version="1.0"?><note>svg</note>',
      'plain text that says <svg>',
      '<svg\u0000/>',
      '',
    ]) {
      expect(sniffFileType(text(content)), content).toBeNull();
    }
    expect(sniffFileType(Buffer.concat([text('<svg>'), Buffer.from([0xff, 0xfe])]))).toBeNull();
  });

  it('refuses a file whose name or declared type lies: text, GIF, HTML, an executable', () => {
    expect(sniffFileType(text('I am really a text file, named photo.png'))).toBeNull();
    expect(sniffFileType(text('GIF89a\x01\x00\x01\x00'))).toBeNull();
    expect(sniffFileType(text('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffFileType(Buffer.from('MZ\x90\x00\x03\x00', 'latin1'))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
    expect(sniffFileType(PNG.subarray(0, 7))).toBeNull();
  });
});
