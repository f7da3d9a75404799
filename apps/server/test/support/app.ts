import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  API_PREFIX,
  api,
  devTypeOpKey,
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResult,
  type Envelope,
  type PermissionKey,
} from '@uiot/contracts';
import type { NbPlatform } from '@uiot/device-protocol';
import { eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import { LocalFileStore } from '../../src/infra/files/local-file-store.ts';
import { SILENT_LOGGER } from '../../src/lib/module-logger.ts';
import { hashPassword } from '../../src/lib/password-hash.ts';
import { opLog } from '../../src/modules/admin/logs.schema.ts';
import { ensureBuiltInAccounts } from '../../src/modules/org/admin-account.ts';
import { permissionGrant, role, staff, staffRole } from '../../src/modules/org/org.schema.ts';
import { param } from '../../src/modules/params/params.schema.ts';
import { createServices, type ServiceOptions, type Services } from '../../src/services.ts';
import type { TestDatabase, TestDatabaseKind } from './databases.ts';

export const ADMIN_NAME = 'admin';
export const ADMIN_PASSWORD = 'Admin-Test-2026';
/** A password that satisfies the password rule, for test accounts. */
export const STAFF_PASSWORD = 'Staff-Pass-123';

let addressCounter = 0;
/**
 * A fresh client address. Failed sign-ins are counted per address, so every test that fails on purpose
 * (or must not be slowed down by another test's failures) calls from an address of its own.
 */
export function freshAddress(): string {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function uniqueName(prefix = 'user'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Gives a staff member a new role holding these keys (directly in the database); returns the role's id. */
export async function giveRole(
  db: Db,
  staffId: string,
  /** Permission keys, dynamic ones (`devTypeOp:{typeId}`) included. */
  permissions: readonly string[],
): Promise<string> {
  const [created] = await db
    .insert(role)
    .values({ name: uniqueName('role') })
    .returning({ id: role.id });
  if (permissions.length > 0) {
    await db
      .insert(permissionGrant)
      .values(permissions.map((permission) => ({ subjectType: 'Role', subjectId: created!.id, permission })));
  }
  await db.insert(staffRole).values({ staffId, roleId: created!.id });
  return created!.id;
}

export interface StaffOptions {
  name?: string;
  password?: string;
  permissions?: readonly PermissionKey[];
  /** Device types whose devices the staff member may operate (DevTypeOp grants, with its permissions). */
  deviceTypes?: readonly string[];
  /** Still has the initial password (default false); with ChangePwdByFirstLogin on, the guard holds it. */
  mustChangePassword?: boolean;
  status?: string;
}

export interface TestStaff {
  id: string;
  name: string;
  password: string;
}

/** How a call is made: who calls, in which language, from where. */
interface CallerOptions {
  token?: string | null;
  lang?: string;
  remoteAddress?: string;
  /** Other headers of the call (a client's name, say). */
  headers?: Record<string, string>;
}

/** A call of an endpoint of the contract: its query and body typed as the contract takes them. */
export interface EndpointCallOptions<E extends Endpoint> extends CallerOptions {
  query?: EndpointQuery<E>;
  body?: EndpointBody<E>;
  /**
   * A body outside the contract, sent instead of `body` as it is: a string raw (with `contentType`), anything
   * else as JSON. For tests of what the server does with malformed or invalid input.
   */
  payload?: unknown;
  contentType?: string;
}

/** A call by URL: for what is no endpoint of the contract (unknown paths, files, callbacks) or wrong on purpose. */
export interface RawCallOptions extends CallerOptions {
  method?: 'GET' | 'POST';
  url: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Raw payload sent as it is (with `contentType`), instead of `body`. */
  payload?: string;
  contentType?: string;
}

/** The URL an endpoint is served at. */
export const urlOf = (endpoint: Pick<Endpoint, 'path'>): string => `${API_PREFIX}${endpoint.path}`;

/** A query as the URL carries it: every value a string. */
function queryString(query: unknown): Record<string, string> | undefined {
  if (query === undefined || query === null) return undefined;
  const entries = Object.entries(query).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([key, value]) => [key, String(value)]));
}

export interface CallResult<T> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Envelope<T>;
}

/** Calls a URL of the app through `app.inject` and parses the envelope: for what is outside the contract. */
export async function callUrl<T = unknown>(app: FastifyInstance, o: RawCallOptions): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.lang) headers['accept-language'] = o.lang;
  if (o.contentType) headers['content-type'] = o.contentType;
  const response = await app.inject({
    method: o.method ?? (o.body === undefined && o.payload === undefined ? 'GET' : 'POST'),
    url: o.url,
    headers,
    ...(o.query ? { query: o.query } : {}),
    ...(o.payload !== undefined
      ? { payload: o.payload }
      : o.body !== undefined
        ? { payload: o.body as object }
        : {}),
    remoteAddress: o.remoteAddress ?? '127.0.0.1',
  });
  return { status: response.statusCode, headers: response.headers, body: response.json<Envelope<T>>() };
}

/** Calls an endpoint of the contract on the app through `app.inject` and parses the envelope. */
export function callEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  o: EndpointCallOptions<E> = {},
): Promise<CallResult<EndpointResult<E>>> {
  const { query, body, payload, ...caller } = o;
  const raw = payload !== undefined && typeof payload !== 'string';
  return callUrl<EndpointResult<E>>(app, {
    ...caller,
    method: endpoint.method,
    url: urlOf(endpoint),
    ...(query !== undefined ? { query: queryString(query) } : {}),
    ...(raw ? { body: payload } : body !== undefined ? { body } : {}),
    ...(typeof payload === 'string' ? { payload } : {}),
  });
}

export interface TestAppOptions {
  sessionIdleSeconds?: number;
  sessionMaxSeconds?: number;
  webDistDir?: string;
  /** Mail goes through this SMTP server; unset, it is kept in the outbox. */
  smtpUrl?: string;
  /** The SMS and app push webhooks of alarm notifications (unset: not configured). */
  noticeWebhooks?: Config['noticeWebhooks'];
  services?: ServiceOptions;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-* are believed. */
  trustedProxies?: string[];
  /** CORS_ORIGINS: the other origins whose pages may call the API (none unless given). */
  corsOrigins?: string[];
  /** Certificate and key: the app is built for HTTPS (to be listened on; `inject` stays plain). */
  tls?: { cert: string; key: string };
  /** API_DOCS: the OpenAPI document and its page are served at /api/docs. */
  apiDocs?: boolean;
  /** Shared secrets of the NB-IoT platforms' callbacks (unset: closed). */
  nbCallbackSecrets?: Partial<Record<NbPlatform, string>>;
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  db: Db;
  services: Services;
  /** Calls an endpoint of the contract through `app.inject` and parses the envelope. */
  call<E extends Endpoint>(
    endpoint: E,
    options?: EndpointCallOptions<E>,
  ): Promise<CallResult<EndpointResult<E>>>;
  /** Calls a URL through `app.inject` and parses the envelope: for what is outside the contract. */
  callRaw<T = unknown>(options: RawCallOptions): Promise<CallResult<T>>;
  /** Signs in and returns the token; fails the test when the sign-in is refused. */
  signIn(name: string, password: string, remoteAddress?: string): Promise<string>;
  createStaff(options?: StaffOptions): Promise<TestStaff>;
  setParam(name: string, value: string): Promise<void>;
  /** Closes the app only; the database stays open (for a second app on the same database). */
  closeApp(): Promise<void>;
  close(): Promise<void>;
}

/** Where no console build exists: the app then serves the API and `/config.json` only. */
const NO_CONSOLE_DIR = path.join(import.meta.dirname, 'no-console');

/**
 * Builds the app for `app.inject` on a migrated test database: parameters seeded, built-in accounts
 * created with ADMIN_PASSWORD.
 */
export async function createTestApp(database: TestDatabase, options: TestAppOptions = {}): Promise<TestApp> {
  const { db } = database;
  // Files go to a folder of the app's own unless the test hands in a store.
  const filesDir = options.services?.fileStore ? null : mkdtempSync(path.join(tmpdir(), 'uiot-test-files-'));
  const services = createServices(
    db,
    {
      sessionIdleSeconds: options.sessionIdleSeconds ?? 3600,
      sessionMaxSeconds: options.sessionMaxSeconds ?? 12 * 3600,
      smtpUrl: options.smtpUrl,
      ...(options.noticeWebhooks ? { noticeWebhooks: options.noticeWebhooks } : {}),
      ...(options.nbCallbackSecrets ? { nbCallbackSecrets: options.nbCallbackSecrets } : {}),
    },
    { ...options.services, ...(filesDir ? { fileStore: new LocalFileStore(filesDir) } : {}) },
  );
  await services.params.seedDefaults();
  await ensureBuiltInAccounts(db, ADMIN_PASSWORD);
  const stopSessions = await services.sessions.start(database, SILENT_LOGGER);
  const app = await buildApp({
    config: {
      corsOrigins: options.corsOrigins ?? [],
      webDistDir: options.webDistDir ?? NO_CONSOLE_DIR,
      mqttWsPort: 8083,
      logLevel: 'silent',
      ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
      apiDocs: options.apiDocs ?? false,
    },
    ...(options.tls ? { tls: options.tls } : {}),
    database,
    services,
    busConnected: () => true,
    logger: false,
  });
  await app.ready();

  const callRaw = <T>(o: RawCallOptions) => callUrl<T>(app, o);
  const call = <E extends Endpoint>(endpoint: E, o: EndpointCallOptions<E> = {}) =>
    callEndpoint(app, endpoint, o);

  const signIn = async (name: string, password: string, remoteAddress?: string) => {
    const response = await call(api.auth.loginCheck, {
      body: { name, pwd: password },
      remoteAddress: remoteAddress ?? freshAddress(),
    });
    if (response.status !== 200 || !response.body.success) {
      throw new Error(`sign-in of ${name} refused: ${JSON.stringify(response.body)}`);
    }
    return response.body.data.token;
  };

  const createStaff = async (o: StaffOptions = {}): Promise<TestStaff> => {
    const name = o.name ?? uniqueName();
    const password = o.password ?? STAFF_PASSWORD;
    const [row] = await db
      .insert(staff)
      .values({
        name,
        passwordHash: await hashPassword(password),
        status: o.status ?? 'activated',
        // An established account unless a test asks for one held at the forced password change.
        mustChangePassword: o.mustChangePassword ?? false,
      })
      .returning({ id: staff.id });
    const id = row!.id;
    const keys = [...(o.permissions ?? []), ...(o.deviceTypes ?? []).map(devTypeOpKey)];
    if (keys.length > 0) await giveRole(db, id, keys);
    return { id, name, password };
  };

  const setParam = async (name: string, value: string) => {
    const updated = await db.update(param).set({ val: value }).where(eq(param.name, name)).returning();
    if (updated.length !== 1) throw new Error(`parameter ${name} does not exist`);
  };

  let appClosed = false;
  const closeApp = async () => {
    if (appClosed) return;
    appClosed = true;
    await app.close();
    await services.mail.close();
    await stopSessions();
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
  };

  return {
    app,
    database,
    db,
    services,
    call,
    callRaw,
    signIn,
    createStaff,
    setParam,
    closeApp,
    close: async () => {
      try {
        await closeApp();
      } finally {
        await database.close();
      }
    },
  };
}

/** Opens a database of the kind and builds the app on it; the database is closed if building fails. */
export async function openTestApp(kind: TestDatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await kind.open();
  try {
    return await createTestApp(database, options);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Waits until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The operation log rows matching `where`, once at least `atLeast` of them are there and every one is completed:
 * a row is written before its handler runs and completed with its result code after the answer is sent, so a
 * test that reads it right after the answer can find it still without one.
 */
export function completedOpLogs(db: Db, where: SQL | undefined, atLeast = 1) {
  return eventually(async () => {
    const rows = await db.select().from(opLog).where(where).orderBy(opLog.id);
    return rows.length >= atLeast && rows.every((r) => r.resultCode !== null) ? rows : undefined;
  });
}
