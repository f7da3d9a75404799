import type { FileType } from '@uiot/contracts';

/**
 * The type of a file read from its content, never from its name or the type a client declares. Plain
 * functions of the bytes, no I/O.
 */

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const PDF_MAGIC = [...'%PDF-'].map((c) => c.charCodeAt(0));
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const ZIP_END_OF_DIRECTORY = 0x06054b50;
const ZIP_DIRECTORY_ENTRY = 0x02014b50;
/** The end-of-directory record (22 bytes) and the longest archive comment after it. */
const ZIP_TAIL_MAX = 22 + 0xffff;
/** Parts every OOXML spreadsheet has (ECMA-376 Part 2: the content types; Part 1: the workbook). */
const XLSX_PARTS = ['[Content_Types].xml', 'xl/workbook.xml'];
/** How far into an SVG file its root element may start (declaration, comments, doctype before it). */
const SVG_HEAD_MAX = 4096;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/**
 * The names of a zip archive's entries, read from its central directory (found through the end-of-directory
 * record at the end of the file); null when the bytes are no readable zip archive.
 */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  if (!startsWith(bytes, ZIP_LOCAL_HEADER)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - ZIP_TAIL_MAX); i--) {
    if (view.getUint32(i, true) === ZIP_END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const names: string[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== ZIP_DIRECTORY_ENTRY) return null;
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const nameEnd = offset + 46 + nameLength;
    if (nameEnd > end) return null;
    names.push(decoder.decode(bytes.subarray(offset + 46, nameEnd)));
    offset = nameEnd + extraLength + commentLength;
  }
  return names;
}

/** An OOXML spreadsheet: a zip archive holding the content types and the workbook part. */
function isXlsx(bytes: Uint8Array): boolean {
  const names = zipEntryNames(bytes);
  return names !== null && XLSX_PARTS.every((part) => names.includes(part));
}

/**
 * SVG: UTF-8 text (no NUL, valid encoding) whose root element is `<svg`, after an optional byte-order
 * mark, XML declaration, processing instructions, comments, doctype and white space. Recognised only:
 * what the drawing holds (scripts, links) is for the sanitiser of the kinds that take SVG.
 */
function isSvg(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (text.includes('\u0000')) return false;
  let rest = text.replace(/^\uFEFF/, '').slice(0, SVG_HEAD_MAX);
  const prolog = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\s[^>[]*(?:\[[\s\S]*?\])?\s*>)/i;
  for (let match = prolog.exec(rest); match; match = prolog.exec(rest)) {
    rest = rest.slice(match[0].length);
  }
  return /^<svg[\s/>]/.test(rest);
}

/** The type of a file by its content, or null when it is none the server recognises. */
export function sniffFileType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, PNG_MAGIC)) return 'png';
  if (startsWith(bytes, JPEG_MAGIC)) return 'jpeg';
  if (startsWith(bytes, PDF_MAGIC)) return 'pdf';
  if (startsWith(bytes, ZIP_LOCAL_HEADER)) return isXlsx(bytes) ? 'xlsx' : null;
  if (isSvg(bytes)) return 'svg';
  return null;
}
