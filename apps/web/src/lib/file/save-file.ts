/** Time to keep a saved file's object URL, so that the browser has started the download. */
const REVOKE_AFTER_MS = 30_000;

/** Hands a file to the browser's download (exports, generated CSV). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** A file name without characters that file systems refuse. */
export function safeFileName(name: string): string {
  const printable = [...name].map((char) => (char.charCodeAt(0) < 0x20 ? '_' : char)).join('');
  return printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'export';
}
