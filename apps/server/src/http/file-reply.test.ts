import { describe, expect, it } from 'vitest';
import { xlsxFileNames } from '../modules/devices/transfer/xlsx-file.ts';
import { attachmentDisposition, contentDisposition } from './file-reply.ts';

describe('xlsx file names', () => {
  it('have an ASCII fallback and the UTF-8 name', () => {
    const names = xlsxFileNames(
      { en: 'device-ledger', 'zh-CN': '设备台账', 'zh-TW': '設備台賬' },
      'zh-CN',
      '_1',
    );
    expect(names).toEqual({ asciiName: 'device-ledger_1.xlsx', name: '设备台账_1.xlsx' });
    expect(contentDisposition(names.asciiName, names.name)).toBe(
      `attachment; filename="device-ledger_1.xlsx"; filename*=UTF-8''${encodeURIComponent('设备台账_1.xlsx')}`,
    );
  });

  it('never break the header', () => {
    expect(contentDisposition('a"b\\c\u00e9.xlsx', "it's (1).xlsx")).toBe(
      `attachment; filename="a_b_c_.xlsx"; filename*=UTF-8''it%27s%20%281%29.xlsx`,
    );
  });
});

describe('attachmentDisposition', () => {
  it('is always an attachment, with an ASCII fallback and the UTF-8 name (RFC 5987)', () => {
    expect(attachmentDisposition('签名.png')).toBe(
      `attachment; filename="__.png"; filename*=UTF-8''${encodeURIComponent('签名.png')}`,
    );
    expect(attachmentDisposition('café "menu".pdf')).toBe(
      `attachment; filename="cafe _menu_.pdf"; filename*=UTF-8''caf%C3%A9%20%22menu%22.pdf`,
    );
  });
});
