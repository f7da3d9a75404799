import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { type FileKind, fileKinds, storedFile } from '../files.ts';

/**
 * Upload of one file (multipart, the part `file`) for a later call that names its id: an import, a staff
 * member's signature. Any signed-in user may upload: the file is the uploader's alone until a call that
 * needs its own permission attaches it (or uses it up), it counts against the uploader's pending uploads
 * and, never used, is removed after a grace period.
 */
export const uploadFile = defineEndpoint({
  method: 'POST',
  path: '/file/upload',
  access: 'signedIn',
  module: 'files',
  summary: 'Upload a file of a kind (multipart, part "file"): its id is then given to the call that uses it',
  query: z.object({ kind: z.enum(fileKinds as [FileKind, ...FileKind[]]) }),
  upload: { kinds: fileKinds },
  response: storedFile,
});
