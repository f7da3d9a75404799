import { ResultCode } from '@uiot/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/** Deepest nesting of objects and arrays a JSON body may have; `{"a":{"b":1}}` is nested 2 deep. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, read in one pass over the text before
 * anything is built from it: brackets inside strings do not count. Text that is not JSON is left to the
 * parser, which refuses it.
 */
export function exceedsJsonDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character, a quote among them.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON is the only body the server takes (any other type: 415). It is read as text, refused when nested
 * deeper than MAX_JSON_DEPTH (400, InputTooDeep), then parsed by Fastify's own parser (which refuses
 * `__proto__` keys). The text is kept on the request for the routes that store what they received (the
 * NB-IoT callbacks).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.decorateRequest('jsonText', null);
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
      done(new AppError(ResultCode.InputTooDeep, { params: { max: MAX_JSON_DEPTH } }), undefined);
      return;
    }
    req.jsonText = text;
    parseJson(req, text, done);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received, once parsed; null without one. */
    jsonText: string | null;
  }
}
