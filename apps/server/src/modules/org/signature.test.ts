import { describe, expect, it } from 'vitest';
import { legacySignatureBytes } from './signature.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('legacySignatureBytes', () => {
  it('decodes a base64 data URL of any declared type', () => {
    expect(legacySignatureBytes(dataUrl('image/png', PNG))).toEqual(PNG);
    expect(legacySignatureBytes(dataUrl('application/octet-stream', PNG))).toEqual(PNG);
    expect(legacySignatureBytes(` ${dataUrl('image/jpeg', PNG)}\n`)).toEqual(PNG);
  });

  it('refuses what is not a base64 data URL', () => {
    for (const text of [
      'not a data url',
      PNG.toString('base64'),
      `data:image/png,${PNG.toString('latin1')}`,
      'data:image/png;base64,@@@@',
      'data:image/png;base64,iVBORw0KGgo', // length not a multiple of 4
      'https://example.com/signature.png',
    ]) {
      expect(legacySignatureBytes(text), text).toBeNull();
    }
  });
});
