import { describe, expect, it } from 'vitest';
import { checkSignature, SIGNATURE_MAX_BYTES } from './signature.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const padded = (magic: Buffer, size: number) => Buffer.concat([magic, Buffer.alloc(size - magic.length)]);

describe('checkSignature', () => {
  it('accepts PNG and JPEG by their content', () => {
    expect(checkSignature(dataUrl('image/png', PNG))).toEqual({
      ok: true,
      dataUrl: dataUrl('image/png', PNG),
    });
    expect(checkSignature(dataUrl('image/jpeg', JPEG))).toEqual({
      ok: true,
      dataUrl: dataUrl('image/jpeg', JPEG),
    });
  });

  it('reads the type from the magic bytes, not from the declared type', () => {
    expect(checkSignature(dataUrl('image/jpeg', PNG))).toEqual({
      ok: true,
      dataUrl: dataUrl('image/png', PNG),
    });
    expect(checkSignature(dataUrl('application/octet-stream', JPEG))).toEqual({
      ok: true,
      dataUrl: dataUrl('image/jpeg', JPEG),
    });
    expect(checkSignature(dataUrl('image/png', GIF))).toEqual({ ok: false, problem: 'notImage' });
    expect(checkSignature(dataUrl('image/png', SVG))).toEqual({ ok: false, problem: 'notImage' });
    expect(checkSignature(dataUrl('image/png', Buffer.alloc(0)))).toEqual({ ok: false, problem: 'notImage' });
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
      expect(checkSignature(text), text).toEqual({ ok: false, problem: 'notDataUrl' });
    }
  });

  it('accepts at most 256 KiB of image', () => {
    expect(SIGNATURE_MAX_BYTES).toBe(256 * 1024);
    expect(checkSignature(dataUrl('image/png', padded(PNG, SIGNATURE_MAX_BYTES))).ok).toBe(true);
    expect(checkSignature(dataUrl('image/png', padded(PNG, SIGNATURE_MAX_BYTES - 1))).ok).toBe(true);
    expect(checkSignature(dataUrl('image/png', padded(PNG, SIGNATURE_MAX_BYTES + 1)))).toEqual({
      ok: false,
      problem: 'tooLarge',
    });
    expect(checkSignature(dataUrl('image/jpeg', padded(JPEG, SIGNATURE_MAX_BYTES + 2)))).toEqual({
      ok: false,
      problem: 'tooLarge',
    });
  });
});
