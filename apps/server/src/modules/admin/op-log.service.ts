import { API_PREFIX, api } from '@uiot/contracts';
import { and, count, desc, eq, gte, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginLog, opLog } from './logs.schema.ts';

/** Most characters of the arguments' text; longer text is cut and ends with `…`. */
const MAX_ARGS_LENGTH = 4000;
/** Most characters of one string value shown. */
const MAX_STRING_LENGTH = 1000;
/** Deepest level shown; a value below it is shown as `…`. */
const MAX_DEPTH = 8;
/** Most values (keys and items, at every level) shown; the rest is left out. */
const MAX_VALUES = 500;
/** Sign-ins are in the operation log too; the home page shows them from the login log instead. */
const SIGN_IN_URL = `${API_PREFIX}${api.auth.loginCheck.path}`;
const REDACTED = '***';
const ELIDED = '…';

/**
 * A bounded copy of a value for the log: strings cut, levels below MAX_DEPTH and values beyond MAX_VALUES
 * left out, bytes counted, secret fields replaced. It reads only what it shows, so no input, however nested
 * or large, costs more than MAX_VALUES steps.
 */
function boundedCopy(root: unknown, secrets: ReadonlySet<string>): unknown {
  let budget = MAX_VALUES;
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      return value.length > MAX_STRING_LENGTH ? `${value.slice(0, MAX_STRING_LENGTH)}${ELIDED}` : value;
    }
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    if (typeof value === 'bigint') return String(value);
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (typeof value !== 'object') return undefined;
    if (ArrayBuffer.isView(value)) return `(${value.byteLength} bytes)`;
    if (depth >= MAX_DEPTH) return ELIDED;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) {
        if (budget-- <= 0) {
          items.push(ELIDED);
          break;
        }
        items.push(copy(item, depth + 1) ?? null);
      }
      return items;
    }
    const fields: Record<string, unknown> = {};
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (budget-- <= 0) {
        fields[ELIDED] = ELIDED;
        break;
      }
      const shown = secrets.has(key.toLowerCase())
        ? REDACTED
        : copy((value as Record<string, unknown>)[key], depth + 1);
      if (shown !== undefined) fields[key] = shown;
    }
    return fields;
  };
  return copy(root, 0);
}

/**
 * The call's validated input as the log shows it: query and body fields as one JSON object (a body that is
 * not an object under `body`), every secret field replaced by `***`, bounded in depth, count and size.
 * Never throws: a value it cannot read is described as such.
 */
export function describeArgs(args: unknown, secretFields: readonly string[]): string | null {
  if (args === undefined || args === null) return null;
  const secrets = new Set(secretFields.map((f) => f.toLowerCase()));
  let text: string;
  try {
    text = JSON.stringify(boundedCopy(args, secrets)) ?? '';
  } catch {
    return '"(arguments not readable)"';
  }
  if (text === '{}' || text === '') return null;
  return text.length > MAX_ARGS_LENGTH ? `${text.slice(0, MAX_ARGS_LENGTH)}${ELIDED}` : text;
}

/** The input of a call as one object for `describeArgs`: the query's fields and the body's. */
export function callInput(query: unknown, body: unknown): Record<string, unknown> {
  const fields = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  const bodyFields =
    body === undefined || (body !== null && typeof body === 'object' && !Array.isArray(body))
      ? fields(body)
      : { body };
  return { ...fields(query), ...bodyFields };
}

export interface OpLogEntry {
  ipAddr: string | null;
  methodArgs: string | null;
  methodDesc: string;
  methodName: string;
  methodType: string;
  url: string;
  userId: string | null;
  userName: string | null;
  resultCode: number | null;
}

/** What is known of a call only once it has been answered. */
export interface OpLogOutcome {
  resultCode: number;
  /** Who the call turned out to be by (the sign-in); absent, the row keeps whom it named. */
  actor?: { userId: string | null; userName: string | null };
}

export class OpLogService {
  constructor(private readonly db: Db) {}

  /**
   * Writes the row of a call before the call runs (its result not yet known) and answers its id. A change
   * is made only once its row exists: when this fails, the call does not run.
   */
  async begin(entry: Omit<OpLogEntry, 'resultCode'>): Promise<number> {
    const [row] = await this.db
      .insert(opLog)
      .values({ ...entry, resultCode: null })
      .returning({ id: opLog.id });
    return row!.id;
  }

  /** Completes a row written by `begin` with the call's result (and its actor, when the call named one). */
  async complete(id: number, outcome: OpLogOutcome): Promise<void> {
    await this.db
      .update(opLog)
      .set({ resultCode: outcome.resultCode, ...(outcome.actor ?? {}) })
      .where(eq(opLog.id, id));
  }

  /** The user's latest operations, sign-ins left out. */
  async recentOf(userId: string, limit: number) {
    return this.db
      .select({ operateTime: opLog.operateTime, methodDesc: opLog.methodDesc, url: opLog.url })
      .from(opLog)
      .where(and(eq(opLog.userId, userId), ne(opLog.url, SIGN_IN_URL)))
      .orderBy(desc(opLog.operateTime))
      .limit(limit);
  }

  /** The sign-in before the current one, and the number of sign-ins since a time. */
  async loginSummary(userId: string, since: Date) {
    const [previous] = await this.db
      .select({ loginTime: loginLog.loginTime, ipAddr: loginLog.ipAddr })
      .from(loginLog)
      .where(eq(loginLog.userId, userId))
      .orderBy(desc(loginLog.loginTime))
      .offset(1)
      .limit(1);
    const [counted] = await this.db
      .select({ n: count() })
      .from(loginLog)
      .where(and(eq(loginLog.userId, userId), gte(loginLog.loginTime, since)));
    return { previous: previous ?? null, count: counted?.n ?? 0 };
  }
}
