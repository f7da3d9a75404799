import { FILE_TYPES, type FileType } from '@uiot/contracts';

/** Longest display name kept, in characters (the extension included). */
export const DISPLAY_NAME_MAX = 120;

/**
 * Characters a display name never keeps: controls (C0, DEL, C1), format characters (among them the
 * bidirectional controls that can make `gpj.exe` read as `exe.jpg`, zero-width characters and BOMs), line
 * and paragraph separators; and what Windows forbids in a file name is replaced.
 */
const DROPPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const RESERVED = /[<>:"/\\|?*]/g;

/**
 * The name a file is shown and downloaded under, from the name the client sent: never used to store the
 * file (stored under a generated id). The last path segment only, normalised (NFC), without the
 * characters above, white space collapsed, no leading or trailing dots or spaces, at most
 * DISPLAY_NAME_MAX characters, and ending with an extension of the type found in the content (the one
 * the client gave when it is of that type, the type's own otherwise). Nothing left: `file`.
 */
export function cleanDisplayName(clientName: string | undefined, type: FileType): string {
  const extensions: readonly string[] = FILE_TYPES[type].extensions;
  const segments = (clientName ?? '').normalize('NFC').split(/[/\\]/);
  let name = (segments[segments.length - 1] ?? '')
    .replace(DROPPED, '')
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const dot = name.lastIndexOf('.');
  const given = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  let extension = extensions[0]!;
  if (extensions.includes(given)) {
    extension = given;
    name = name.slice(0, dot);
  }
  name = name.replace(/[\s.]+$/g, '');
  const room = DISPLAY_NAME_MAX - extension.length - 1;
  // Cut by code points, so no surrogate pair is split.
  const base =
    [...name]
      .slice(0, room)
      .join('')
      .replace(/[\s.]+$/g, '') || 'file';
  return `${base}.${extension}`;
}
