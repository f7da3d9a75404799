/** Largest signature image kept, decoded. */
export const SIGNATURE_MAX_BYTES = 256 * 1024;

export type SignatureImage = { ok: true; dataUrl: string } | { ok: false; problem: SignatureProblem };
export type SignatureProblem = 'notDataUrl' | 'notImage' | 'tooLarge';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,([A-Za-z0-9+/]*={0,2})$/;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * Checks an uploaded signature (spec §5: png or jpg only). The type is read from the decoded content's
 * magic bytes, never from the type the data URL declares; the result is a data URL with the real type.
 */
export function checkSignature(upload: string): SignatureImage {
  const match = DATA_URL.exec(upload.trim());
  if (!match) return { ok: false, problem: 'notDataUrl' };
  const base64 = match[2]!;
  // Decoded size from the text length, so an oversized upload is refused before it is decoded.
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  if (base64.length % 4 !== 0) return { ok: false, problem: 'notDataUrl' };
  if ((base64.length / 4) * 3 - padding > SIGNATURE_MAX_BYTES) return { ok: false, problem: 'tooLarge' };
  const bytes = Buffer.from(base64, 'base64');
  const type = startsWith(bytes, PNG_MAGIC)
    ? 'image/png'
    : startsWith(bytes, JPEG_MAGIC)
      ? 'image/jpeg'
      : null;
  if (!type) return { ok: false, problem: 'notImage' };
  return { ok: true, dataUrl: `data:${type};base64,${base64}` };
}
