import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_ENDPOINTS } from './api.ts';
import type { Endpoint } from './endpoint.ts';

/**
 * Names of input fields that hold a secret: passwords, secrets, tokens, PINs and one-time codes. Such a
 * field must be in its endpoint's `secretFields`, which keeps its value out of the operation log and of
 * every other log.
 */
const SECRET_NAME = /(?:password|passwd|pwd|secret|token|pin|pincode|otp|verificationcode|authcode)$/i;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};

/** Whether a value of this schema can be free text (a flag, a number or a fixed word holds no secret). */
function mayBeText(schema: JsonSchema): boolean {
  if (schema.enum || schema.const !== undefined) return false;
  const choices = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (choices.length > 0) return choices.some(mayBeText);
  if (schema.type === undefined) return true;
  return (Array.isArray(schema.type) ? schema.type : [schema.type]).includes('string');
}

/** The names of the properties at any depth of a JSON schema whose value can be text. */
function textPropertyNames(schema: JsonSchema | boolean | undefined, into = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return into;
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (mayBeText(child)) into.add(name);
    textPropertyNames(child, into);
  }
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const child of [...items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    textPropertyNames(child, into);
  }
  textPropertyNames(schema.additionalProperties, into);
  return into;
}

function inputFields(endpoint: Endpoint): Set<string> {
  const names = new Set<string>();
  for (const schema of [endpoint.query, endpoint.body]) {
    if (!schema) continue;
    textPropertyNames(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, names);
  }
  return names;
}

describe('secret fields of every endpoint', () => {
  it('the rule knows a secret field by its name', () => {
    for (const name of [
      'pwd',
      'oldPwd',
      'password',
      'confirmPassword',
      'secret',
      'deviceSecret',
      'token',
      'pin',
      'verificationCode',
    ]) {
      expect(SECRET_NAME.test(name), name).toBe(true);
    }
    for (const name of ['name', 'code', 'deviceCode', 'pinType', 'tokenHash', 'spinSpeed', 'passwordSet']) {
      expect(SECRET_NAME.test(name), name).toBe(false);
    }
    const schema = z.toJSONSchema(
      z.object({
        hasPassword: z.boolean(),
        pwd: z.string(),
        nested: z.array(z.object({ pin: z.string().nullable() })),
      }),
    ) as JsonSchema;
    expect([...textPropertyNames(schema)].filter((n) => SECRET_NAME.test(n))).toEqual(['pwd', 'pin']);
  });

  it.each(ALL_ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const))(
    '%s declares each input field holding a secret in secretFields',
    (_name, endpoint) => {
      const secret = [...inputFields(endpoint)].filter((name) => SECRET_NAME.test(name));
      const declared = new Set((endpoint.secretFields ?? []).map((f) => f.toLowerCase()));
      expect(secret.filter((name) => !declared.has(name.toLowerCase()))).toEqual([]);
    },
  );
});
