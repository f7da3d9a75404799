import { describe, expect, it } from 'vitest';
import { cleanDisplayName, DISPLAY_NAME_MAX } from './display-name.ts';

describe('cleanDisplayName', () => {
  it('keeps an ordinary name, in any script, with an extension of its type', () => {
    expect(cleanDisplayName('signature.png', 'png')).toBe('signature.png');
    expect(cleanDisplayName('签名 2026.JPG', 'jpeg')).toBe('签名 2026.jpg');
    expect(cleanDisplayName('設備匯入.xlsx', 'xlsx')).toBe('設備匯入.xlsx');
    expect(cleanDisplayName('scan.jpeg', 'jpeg')).toBe('scan.jpeg');
  });

  it('keeps the last path segment only', () => {
    expect(cleanDisplayName('../../etc/passwd.png', 'png')).toBe('passwd.png');
    expect(cleanDisplayName('C:\\Users\\me\\Desktop\\sign.png', 'png')).toBe('sign.png');
    expect(cleanDisplayName('/tmp/', 'png')).toBe('file.png');
  });

  it('ends with the extension of the type found in the content, whatever the client said', () => {
    expect(cleanDisplayName('photo.txt', 'png')).toBe('photo.txt.png');
    expect(cleanDisplayName('report.exe', 'pdf')).toBe('report.exe.pdf');
    expect(cleanDisplayName('noextension', 'xlsx')).toBe('noextension.xlsx');
    expect(cleanDisplayName('devices.xlsx.png', 'xlsx')).toBe('devices.xlsx.png.xlsx');
  });

  it('drops controls, bidirectional overrides, zero-width characters and separators', () => {
    expect(cleanDisplayName('a\u0000b\u0007c\u007f\u0085.png', 'png')).toBe('abc.png');
    // RIGHT-TO-LEFT OVERRIDE would show "invoice\u202Egnp.exe" as "invoiceexe.png".
    expect(cleanDisplayName('invoice\u202egnp.exe', 'pdf')).toBe('invoicegnp.exe.pdf');
    expect(cleanDisplayName('\ufeffzero\u200bwidth\u2066x\u2069.png', 'png')).toBe('zerowidthx.png');
    expect(cleanDisplayName('line\u2028break\r\nname.png', 'png')).toBe('linebreakname.png');
  });

  it('replaces what a file name cannot hold, collapses white space, trims dots and spaces', () => {
    expect(cleanDisplayName('a<b>c:d"e|f?g*h.png', 'png')).toBe('a_b_c_d_e_f_g_h.png');
    expect(cleanDisplayName('  many   \t spaces  .png', 'png')).toBe('many spaces.png');
    expect(cleanDisplayName('...hidden.png', 'png')).toBe('hidden.png');
    expect(cleanDisplayName('name. .png', 'png')).toBe('name.png');
  });

  it('names a file without a usable name "file"', () => {
    expect(cleanDisplayName(undefined, 'png')).toBe('file.png');
    expect(cleanDisplayName('', 'jpeg')).toBe('file.jpg');
    expect(cleanDisplayName(' . . ', 'png')).toBe('file.png');
    expect(cleanDisplayName('\u202e\u0000', 'pdf')).toBe('file.pdf');
  });

  it('cuts long names to the limit, keeping the extension and whole characters', () => {
    const long = cleanDisplayName(`${'长'.repeat(300)}.xlsx`, 'xlsx');
    expect([...long]).toHaveLength(DISPLAY_NAME_MAX);
    expect(long.endsWith('长.xlsx')).toBe(true);
    const emoji = cleanDisplayName(`${'😀'.repeat(200)}.png`, 'png');
    expect([...emoji]).toHaveLength(DISPLAY_NAME_MAX);
    expect(emoji).not.toContain('\ufffd');
    expect(emoji.endsWith('😀.png')).toBe(true);
  });

  it('normalises to NFC', () => {
    expect(cleanDisplayName('cafe\u0301.png', 'png')).toBe('caf\u00e9.png');
  });
});
