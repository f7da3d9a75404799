import { type Endpoint, FILE_KINDS, type FileKind } from '@uiot/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emptyWorkbook, JPEG, multipart, PNG } from './files.ts';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  default?: unknown;
};

export interface SampleOptions {
  /** Every declared property, not only the required ones (an optional `id` turns a save into an update). */
  allProperties?: boolean;
  /** Arrays with one sample item instead of none. */
  arrayItem?: boolean;
  /** Applied to every string of the sample (enum values and formats included). */
  text?: (sample: string) => string;
}

/**
 * A valid-looking value for a JSON schema: the first enum value, a plausible string or number, the
 * required properties (or all). Not always valid (refinements are not in the schema): good enough for a
 * call to get past the guard and into the service.
 */
function sampleOf(schema: JsonSchema, options: SampleOptions): unknown {
  const value = plainSampleOf(schema, options);
  return typeof value === 'string' && options.text ? options.text(value) : value;
}

function plainSampleOf(schema: JsonSchema, options: SampleOptions): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  // A nullable field is sent as null: it passes whatever format the non-null value would need. With `text`,
  // the value is sent, so that the text reaches every field that can hold one.
  if (choice?.some((s) => s.type === 'null') && !options.text) return null;
  if (choice?.length) return sampleOf(choice.find((s) => s.type !== 'null') ?? choice[0]!, options);
  if (schema.allOf?.length) return sampleOf(schema.allOf[0]!, options);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (options.allProperties ? Object.keys(schema.properties ?? {}) : (schema.required ?? [])).map(
          (key) => [key, sampleOf(schema.properties?.[key] ?? {}, options)],
        ),
      );
    case 'array':
      return options.arrayItem ? [sampleOf(schema.items ?? {}, options)] : [];
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'null':
      return null;
    default:
      if (schema.format === 'email') return 'matrix@example.com';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Query string values of an endpoint's query schema (every value a string, `text` applied to each). */
export function sampleQuery(endpoint: Endpoint, options: SampleOptions = {}): Record<string, string> {
  if (!endpoint.query) return {};
  const { text, ...rest } = options;
  const value = sampleOf(jsonSchemaOf(endpoint.query), rest) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, text ? text(String(v)) : String(v)]));
}

/** A JSON body for an endpoint's body schema. */
export function sampleBody(endpoint: Endpoint, options: SampleOptions = {}): unknown {
  return endpoint.body ? sampleOf(jsonSchemaOf(endpoint.body), options) : undefined;
}

/** A file of each type a kind takes, the first one the sample uses. */
const SAMPLE_FILES: Record<string, () => Promise<Buffer>> = {
  png: async () => PNG,
  jpeg: async () => JPEG,
  xlsx: emptyWorkbook,
};

/**
 * The multipart body of an upload endpoint (`upload` in the contract): one file of the kind the sample
 * query names (or the endpoint's one kind), in the part `file`, as a browser sends it.
 */
export async function sampleUpload(
  endpoint: Endpoint,
  query: Record<string, string> = sampleQuery(endpoint),
): Promise<{ payload: Buffer; contentType: string } | undefined> {
  if (!endpoint.upload) return undefined;
  const kinds = endpoint.upload.kinds;
  const kind = (kinds.find((k) => k === query.kind) ?? kinds[0]) as FileKind;
  const type = FILE_KINDS[kind].types[0];
  const bytes = await SAMPLE_FILES[type]!();
  return multipart([{ name: `sample.${type}`, bytes }]);
}

/**
 * Calls an endpoint through `app.inject` as the session of `token` (none: anonymous), with a query and (for
 * a POST) a body; an upload endpoint is sent a sample file of its kind as multipart instead of the body.
 */
export async function injectEndpoint(
  app: FastifyInstance,
  endpoint: Endpoint,
  token: string | null,
  request: { query: Record<string, string>; body: unknown },
) {
  const upload = await sampleUpload(endpoint, request.query);
  const payload = upload ? upload.payload : (request.body as object | undefined);
  return app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}`,
    query: request.query,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(upload ? { 'content-type': upload.contentType } : {}),
    },
    ...(payload === undefined ? {} : { payload }),
  });
}
