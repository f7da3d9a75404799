import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { FileService } from '../../infra/files/file.service.ts';
import { inspectUpload } from '../../infra/files/inspect.ts';
import { SIGNATURE_REF, staffWithLegacySignature, updateStaffRow } from './staff.repository.ts';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,([A-Za-z0-9+/]*={0,2})$/;

/**
 * The image of a signature kept, before the file store, as a base64 data URL in the staff row; null for
 * text that is no such URL. Its type is not taken from the URL: the file store reads it from the bytes.
 */
export function legacySignatureBytes(text: string): Buffer | null {
  const match = DATA_URL.exec(text.trim());
  if (!match || match[2]!.length % 4 !== 0) return null;
  return Buffer.from(match[2]!, 'base64');
}

/**
 * Moves the signatures kept as data URLs in staff rows into the file store, attached to their staff
 * member, and clears the column; run at start-up, a no-op once done. A value that is no PNG or JPEG image
 * (none was ever accepted) is left where it is. Answers how many were moved.
 */
export async function moveLegacySignatures(db: Db, files: FileService): Promise<number> {
  let moved = 0;
  for (const { id, signature } of await staffWithLegacySignature(db)) {
    const bytes = legacySignatureBytes(signature ?? '');
    let upload: ReturnType<typeof inspectUpload>;
    try {
      if (!bytes) continue;
      upload = inspectUpload('signature', bytes, 'signature');
    } catch (error) {
      if (error instanceof AppError) continue;
      throw error;
    }
    const stored = await files.save(upload, null);
    const ref = { type: SIGNATURE_REF, id };
    await db.transaction(async (tx) => {
      await files.detach(tx, ref);
      await files.attach(tx, { id: stored.id, ownerId: null, kind: 'signature', ref });
      await updateStaffRow(tx, id, { signature: null });
    });
    moved += 1;
  }
  return moved;
}
