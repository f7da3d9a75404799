import { FILE_KINDS, FILE_TYPES } from '@uiot/contracts';

/** Spec §5: a signature is one png or jpg file, of at most the file store's limit for signatures. */
export const SIGNATURE_TYPES: readonly string[] = FILE_KINDS.signature.types.map((t) => FILE_TYPES[t].mime);
export const SIGNATURE_MAX_BYTES = FILE_KINDS.signature.maxBytes;
const SIGNATURE_EXTENSIONS = /\.(png|jpe?g)$/i;

export type SignatureProblem = 'type' | 'size';

/** Why a chosen file cannot be a signature, or null. */
export function signatureFileProblem(file: {
  name: string;
  type: string;
  size: number;
}): SignatureProblem | null {
  if (!SIGNATURE_TYPES.includes(file.type) || !SIGNATURE_EXTENSIONS.test(file.name)) {
    return 'type';
  }
  return file.size > SIGNATURE_MAX_BYTES ? 'size' : null;
}
