import type { Endpoint } from '@uiot/contracts';
import { FILE_KINDS, type FileKind, formatBytes, UPLOAD_FIELD } from '@uiot/contracts';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & {
  route?: { config?: { endpoint?: Endpoint } };
};

/** What an upload endpoint takes, in the API map's words: its kinds, their types and size limits. */
function uploadDescription(kinds: readonly FileKind[]): string {
  return kinds
    .map(
      (kind) =>
        `${kind}: ${FILE_KINDS[kind].types.join(', ')}, at most ${formatBytes(FILE_KINDS[kind].maxBytes)}`,
    )
    .join('; ');
}

/**
 * The API map's view of a route: the contract's zod schemas as JSON Schema, and an upload endpoint's body
 * as what it is, `multipart/form-data` with one binary part named `file` (the route itself validates no
 * body: the upload reader checks the part, its size and its type).
 */
export function apiDocsTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const transformed = jsonSchemaTransform(input);
  const upload = input.route?.config?.endpoint?.upload;
  if (!upload) return transformed;
  return {
    ...transformed,
    schema: {
      ...transformed.schema,
      consumes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: [UPLOAD_FIELD],
        properties: {
          [UPLOAD_FIELD]: { type: 'string', format: 'binary', description: uploadDescription(upload.kinds) },
        },
        additionalProperties: false,
      },
    },
  };
}
