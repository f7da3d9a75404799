import { API_PREFIX, api } from '@uiot/contracts';
import { and, count, desc, eq, gte, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginLog, opLog } from './logs.schema.ts';

const MAX_ARGS_LENGTH = 4000;
/** Sign-ins are in the operation log too; the home page shows them from the login log instead. */
const SIGN_IN_URL = `${API_PREFIX}${api.auth.loginCheck.path}`;
const REDACTED = '***';

/** Copies call arguments for the log with every secret field replaced, bounded in size. */
export function describeArgs(args: unknown, secretFields: readonly string[]): string | null {
  if (args === undefined || args === null) return null;
  const secrets = new Set(secretFields.map((f) => f.toLowerCase()));
  const scrub = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, secrets.has(k.toLowerCase()) ? REDACTED : scrub(v)]),
      );
    }
    return value;
  };
  const text = JSON.stringify(scrub(args));
  if (text === '{}') return null;
  return text.length > MAX_ARGS_LENGTH ? `${text.slice(0, MAX_ARGS_LENGTH)}…` : text;
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

export class OpLogService {
  constructor(private readonly db: Db) {}

  async write(entry: OpLogEntry): Promise<void> {
    await this.db.insert(opLog).values(entry);
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
