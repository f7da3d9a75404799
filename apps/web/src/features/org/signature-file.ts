/** Spec §5: a signature is one png or jpg file; the server keeps at most 256 KiB of image. */
export const SIGNATURE_TYPES = ['image/png', 'image/jpeg'] as const;
export const SIGNATURE_MAX_BYTES = 256 * 1024;
const SIGNATURE_EXTENSIONS = /\.(png|jpe?g)$/i;

export type SignatureProblem = 'type' | 'size';

/** Why a chosen file cannot be a signature, or null. */
export function signatureFileProblem(file: {
  name: string;
  type: string;
  size: number;
}): SignatureProblem | null {
  if (!(SIGNATURE_TYPES as readonly string[]).includes(file.type) || !SIGNATURE_EXTENSIONS.test(file.name)) {
    return 'type';
  }
  return file.size > SIGNATURE_MAX_BYTES ? 'size' : null;
}
