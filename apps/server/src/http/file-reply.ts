import type { FastifyReply } from 'fastify';

/**
 * Headers of every file answer of the API (endpoints declaring `fileAnswer`): nothing in the file runs or
 * is rendered in the console's origin. No sources at all and a sandbox (a file opened in a tab is an
 * opaque origin without scripts), no type guessing; the answer is not kept (`Cache-Control: no-store` is
 * on every API answer).
 */
export const FILE_ANSWER_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
} as const;

/** RFC 6266 / 5987: a quoted ASCII name and the UTF-8 name percent-encoded. */
export function contentDisposition(asciiName: string, name: string): string {
  const ascii = asciiName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A file answer's Content-Disposition: always an attachment, with an ASCII name and the UTF-8 one (RFC 5987). */
export function attachmentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(ascii, name);
}

/** Sends a stored file itself (not the envelope) as an attachment of its own type. */
export function sendStoredFile(
  reply: FastifyReply,
  file: { displayName: string; contentType: string; bytes: Buffer },
): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.bytes.length))
    .header('content-disposition', attachmentDisposition(file.displayName))
    .send(file.bytes);
}
