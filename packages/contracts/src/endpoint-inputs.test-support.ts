import { z } from 'zod';
import { ALL_ENDPOINTS } from './api.ts';

/** A step into an input: a property name, or any element of an array. */
export type Segment = string | '[]';

/** The query or body schema of one endpoint, and its JSON schema (as an input). */
export interface EndpointInput {
  /** `<path> query` or `<path> body`. */
  name: string;
  schema: z.ZodType;
  json: Record<string, unknown>;
}

/** Every endpoint's query and body schemas: what the contract tests walk to check each input field. */
export function endpointInputs(): EndpointInput[] {
  const inputs: EndpointInput[] = [];
  for (const endpoint of ALL_ENDPOINTS) {
    for (const [part, schema] of [
      ['query', endpoint.query],
      ['body', endpoint.body],
    ] as const) {
      if (!schema) continue;
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      inputs.push({ name: `${endpoint.path} ${part}`, schema, json });
    }
  }
  return inputs;
}

/** An input holding `value` at `path` and nothing else. */
export function inputWith(path: readonly Segment[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const inner = inputWith(rest, value);
  return head === '[]' ? [inner] : { [head]: inner };
}
