/**
 * Device accounts on an external Mosquitto 2 (scale-out profile, ARCHITECTURE §1, §4): the server
 * administers the dynamic security plugin over its own bus connection, with the plugin's JSON commands on
 * `$CONTROL/dynamic-security/v1`.
 *
 * Each device gets a broker client (username = device code, password = its secret) holding one role of its
 * own whose ACLs name its topics literally. A single shared role with `%u` in its topics does not work:
 * Mosquitto 2.0.11's plugin substitutes neither `%u` nor `%c` in ACL topics (checked for publishClientSend
 * and subscribePattern), so such a role would match a level literally called `%u`.
 *
 * Mosquitto disconnects a client whenever its password, roles or existence change, which is what makes a
 * replaced secret or a revoked device stop working at once.
 *
 * Browsers get accounts here too (console accounts, docs/scale-out.md): one per session, holding the role of
 * their station, which lets them subscribe to that station's console topics, and one role per kind of
 * console topic their session's permissions read, which lets them receive that kind and nothing else.
 */

import { randomBytes } from 'node:crypto';
import { CONSOLE_EVENT_KINDS, type ConsoleEventKind } from '@uiot/contracts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import type { BusClient } from './bus-client.ts';
import { consoleTopicPrefix, deviceTopic, isValidTopicLevel } from './topic-acl.ts';

export interface DeviceBrokerAccess {
  /** Lets the device connect with this secret (creates or replaces its broker account). */
  grant(device: { stationId: string; code: string; secret: string }): Promise<void>;
  /** Removes the device's broker account and disconnects it. */
  revoke(code: string): Promise<void>;
}

/** What a browser's account reads: the kinds of its station's console topics its session's permissions read. */
export interface ConsoleReading {
  username: string;
  stationId: string;
  kinds: readonly ConsoleEventKind[];
}

/** A browser's account on the broker: it may read those kinds of its station's console topics, nothing else. */
export interface ConsoleBrokerAccount extends ConsoleReading {
  password: string;
}

/** The broker accounts of browsers (console accounts). */
export interface ConsoleBrokerAccess {
  /**
   * Creates the account unless it exists. An existing one keeps its password (changing it would disconnect
   * the browser's connections that already use it) and gets the kinds given, which disconnects them only
   * when the kinds change.
   */
  grantConsole(account: ConsoleBrokerAccount): Promise<void>;
  /**
   * Gives existing accounts the kinds given. Mosquitto disconnects an account whose roles change: its
   * browser signs in again and reads, at once, only what it reads now. Unknown accounts are skipped;
   * returns how many accounts changed.
   */
  updateConsoles(readings: readonly ConsoleReading[]): Promise<number>;
  /** Removes these accounts (disconnecting their connections); unknown ones are skipped. */
  revokeConsoles(usernames: readonly string[]): Promise<void>;
  /** Usernames of every account on the broker (devices, integrations and consoles alike). */
  listClients(): Promise<string[]>;
}

export interface DynsecAccessOptions {
  /** Time allowed for the plugin to answer one request (default 5000 ms). */
  timeoutMs?: number;
  logger?: ModuleLogger;
  /**
   * The broker account the server itself connects with. When set, `prepare()` gives it the server role
   * (publishing commands to devices, receiving their reports); without it, an operator assigns the role.
   */
  serverUsername?: string;
}

export const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
export const CONTROL_RESPONSE_TOPIC = '$CONTROL/dynamic-security/v1/response';
/** The role of the server's own account. */
export const SERVER_ROLE = 'uiot-server';
export const CHIRPSTACK_ROLE = 'uiot-chirpstack';
/** Username of the ChirpStack integration's account (as on the embedded broker). */
export const CHIRPSTACK_USERNAME = 'chirpstack';
const DEVICE_ROLE_PREFIX = 'uiot-device:';
const CONSOLE_ROLE_PREFIX = 'uiot-console:';
/** Accounts listed per request: the answer stays one modest message. */
const LIST_PAGE_SIZE = 1_000;
/** Accounts removed, read or changed per request. */
const BATCH_SIZE = 100;
/** 128 bits in base64url; a shorter secret cannot hold them. */
const MIN_SECRET_LENGTH = 22;
const DEFAULT_TIMEOUT_MS = 5_000;

type AclType =
  | 'publishClientSend'
  | 'publishClientReceive'
  | 'subscribeLiteral'
  | 'subscribePattern'
  | 'unsubscribeLiteral'
  | 'unsubscribePattern';

interface Acl {
  acltype: AclType;
  topic: string;
  allow: boolean;
}

interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
}

/** The plugin refused a command; `reason` is its own text (e.g. "Client not found"). */
export class DynsecCommandError extends Error {
  override name = 'DynsecCommandError';
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`dynamic security plugin refused ${command}: ${reason}`);
  }
}

/** Topics the server subscribes to, directly or as `$share/{group}/…` (which the plugin checks as written). */
const SERVER_SUBSCRIPTIONS = ['dev/+/+/up', 'dev/+/+/ack', 'application/+/device/+/event/+'];
/** Topics the server publishes to: device commands (native, ChirpStack) and the console namespace. */
const SERVER_PUBLICATIONS = ['dev/+/+/down', 'application/+/device/+/command/down', '/UIOT/#'];

function serverAcls(): Acl[] {
  return [
    ...SERVER_SUBSCRIPTIONS.flatMap((filter): Acl[] => [
      { acltype: 'subscribePattern', topic: filter, allow: true },
      { acltype: 'subscribePattern', topic: `$share/+/${filter}`, allow: true },
      { acltype: 'publishClientReceive', topic: filter, allow: true },
    ]),
    ...SERVER_PUBLICATIONS.map((topic): Acl => ({ acltype: 'publishClientSend', topic, allow: true })),
  ];
}

/** Literal topics only: `subscribeLiteral` refuses `dev/+/{code}/down` and every other wildcard. */
function deviceAcls(stationId: string, code: string): Acl[] {
  const down = deviceTopic(stationId, code, 'down');
  return [
    { acltype: 'publishClientSend', topic: deviceTopic(stationId, code, 'up'), allow: true },
    { acltype: 'publishClientSend', topic: deviceTopic(stationId, code, 'ack'), allow: true },
    { acltype: 'subscribeLiteral', topic: down, allow: true },
    { acltype: 'publishClientReceive', topic: down, allow: true },
    { acltype: 'unsubscribeLiteral', topic: down, allow: true },
  ];
}

/**
 * A station id or device code that can stand in a literal ACL topic. `%` is refused as well: later
 * Mosquitto versions may substitute `%u`/`%c` in ACL topics, and a code carrying them would widen its role.
 */
function checkLevel(name: string, value: string): void {
  if (!isValidTopicLevel(value) || value.includes('%')) {
    throw new RangeError(`${name} cannot be a device topic level: ${JSON.stringify(value)}`);
  }
}

/**
 * The station role of every console: subscribing to `/UIOT/{stationId}/#` as the console does, and receiving
 * nothing by itself. Nothing may be published: no ACL of a console role allows it.
 */
function consoleStationAcls(stationId: string): Acl[] {
  return [{ acltype: 'subscribeLiteral', topic: `${consoleTopicPrefix(stationId)}#`, allow: true }];
}

/**
 * The role of one kind (finding 6): subscribing to `/UIOT/{stationId}/{kind}` or below, and receiving what
 * is published there, whatever the subscription that matched it (`/UIOT/{stationId}/#` included).
 */
function consoleKindAcls(stationId: string, kind: ConsoleEventKind): Acl[] {
  const topic = `${consoleTopicPrefix(stationId)}${kind}`;
  return [
    { acltype: 'subscribeLiteral', topic, allow: true },
    { acltype: 'subscribePattern', topic: `${topic}/#`, allow: true },
    { acltype: 'publishClientReceive', topic, allow: true },
    { acltype: 'publishClientReceive', topic: `${topic}/#`, allow: true },
  ];
}

function consoleStationRole(stationId: string): string {
  return `${CONSOLE_ROLE_PREFIX}${stationId}`;
}

/** `uiot-console-{kind}:{stationId}`: a station id may hold `:`, a kind may not, so no two names meet. */
function consoleKindRole(stationId: string, kind: ConsoleEventKind): string {
  return `uiot-console-${kind}:${stationId}`;
}

/** The roles an account reading these kinds holds. */
function consoleRolesOf(reading: Pick<ConsoleReading, 'stationId' | 'kinds'>): string[] {
  return [
    consoleStationRole(reading.stationId),
    ...reading.kinds.map((kind) => consoleKindRole(reading.stationId, kind)),
  ];
}

/** Whether two lists hold the same names, in any order. */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((name) => set.has(name));
}

/** The ACLs of a `getRole` answer, as comparable strings. */
function aclKeysOf(response: DynsecResponse | undefined): string[] {
  const acls = (response?.data as { role?: { acls?: unknown } } | undefined)?.role?.acls;
  if (!Array.isArray(acls)) return [];
  return acls.map((acl: Partial<Acl>) => `${acl.acltype} ${acl.allow} ${acl.topic}`);
}

/** The role names of a `getClient` answer. */
function roleNamesOf(response: DynsecResponse | undefined): string[] {
  const roles = (response?.data as { client?: { roles?: { rolename?: unknown }[] } } | undefined)?.client
    ?.roles;
  if (!Array.isArray(roles)) return [];
  return roles.flatMap((role) => (typeof role.rolename === 'string' ? [role.rolename] : []));
}

function deviceRole(code: string): string {
  return `${DEVICE_ROLE_PREFIX}${code}`;
}

interface PendingRequest {
  commands: string[];
  responses: (DynsecResponse | undefined)[];
  received: number;
  resolve(responses: DynsecResponse[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class MosquittoDynsecAccess implements DeviceBrokerAccess, ConsoleBrokerAccess {
  private readonly timeoutMs: number;
  private readonly logger: ModuleLogger | undefined;
  private readonly serverUsername: string | undefined;
  /** Several servers share the response topic: correlation ids carry this instance's prefix. */
  private readonly instanceId = randomBytes(6).toString('hex');
  private readonly pending = new Map<string, PendingRequest>();
  /** Grants and revokes of one device run one after the other. */
  private readonly deviceQueues = new Map<string, Promise<void>>();
  /** Console roles known to exist, per station (created once per process; see `consoleRoles`). */
  private readonly knownConsoleRoles = new Map<string, Promise<void>>();
  private sequence = 0;
  private listening: Promise<() => Promise<void>> | null = null;
  private closed = false;

  constructor(
    private readonly bus: BusClient,
    options: DynsecAccessOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.logger = options.logger;
    this.serverUsername = options.serverUsername;
  }

  /**
   * Makes everything no role allows refused, and creates (idempotently) the server's own role; call once at
   * start. (There is no shared device role: see the file comment.)
   */
  async prepare(): Promise<void> {
    const [, createRole] = await this.request(
      [
        // Whatever no role allows is refused, for every client (anonymous ones included).
        {
          command: 'setDefaultACLAccess',
          acls: [
            { acltype: 'publishClientSend', allow: false },
            { acltype: 'publishClientReceive', allow: false },
            { acltype: 'subscribe', allow: false },
            { acltype: 'unsubscribe', allow: true },
          ],
        },
        { command: 'createRole', rolename: SERVER_ROLE, acls: serverAcls() },
      ],
      ['Role already exists'],
    );
    // A role left by an older version is brought up to date.
    if (createRole?.error)
      await this.request([{ command: 'modifyRole', rolename: SERVER_ROLE, acls: serverAcls() }]);
    if (this.serverUsername !== undefined) await this.assignServerRole(this.serverUsername);
    this.logger?.info({ role: SERVER_ROLE }, 'broker access prepared');
  }

  async grant(device: { stationId: string; code: string; secret: string }): Promise<void> {
    const { stationId, code, secret } = device;
    checkLevel('stationId', stationId);
    checkLevel('code', code);
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new RangeError(`a device secret needs at least ${MIN_SECRET_LENGTH} characters (128 bits)`);
    }
    return this.serialised(code, async () => {
      const rolename = deviceRole(code);
      const acls = deviceAcls(stationId, code);
      const [role, client] = await this.request(
        [
          { command: 'createRole', rolename, acls },
          { command: 'createClient', username: code, password: secret, roles: [{ rolename }] },
        ],
        ['Role already exists', 'Client already exists'],
      );
      const updates: DynsecCommand[] = [];
      // The device may have moved to another station: its topics are replaced.
      if (role?.error) updates.push({ command: 'modifyRole', rolename, acls });
      // Replacing the password disconnects a device still connected with the old one.
      if (client?.error)
        updates.push({ command: 'modifyClient', username: code, password: secret, roles: [{ rolename }] });
      if (updates.length > 0) await this.request(updates);
      this.logger?.info({ code, stationId, replaced: updates.length > 0 }, 'device broker account granted');
    });
  }

  /**
   * The ChirpStack integration's account (username `chirpstack`): it publishes device events and receives
   * downlink commands, nothing else. Idempotent; a second call replaces the password.
   */
  async grantChirpstack(password: string): Promise<void> {
    const rolename = CHIRPSTACK_ROLE;
    const acls: Acl[] = [
      { acltype: 'publishClientSend', topic: 'application/+/device/+/event/+', allow: true },
      { acltype: 'subscribePattern', topic: 'application/+/device/+/command/down', allow: true },
      { acltype: 'publishClientReceive', topic: 'application/+/device/+/command/down', allow: true },
    ];
    const [role, client] = await this.request(
      [
        { command: 'createRole', rolename, acls },
        { command: 'createClient', username: CHIRPSTACK_USERNAME, password, roles: [{ rolename }] },
      ],
      ['Role already exists', 'Client already exists'],
    );
    const updates: DynsecCommand[] = [];
    if (role?.error) updates.push({ command: 'modifyRole', rolename, acls });
    if (client?.error) {
      updates.push({
        command: 'modifyClient',
        username: CHIRPSTACK_USERNAME,
        password,
        roles: [{ rolename }],
      });
    }
    if (updates.length > 0) await this.request(updates);
  }

  async revoke(code: string): Promise<void> {
    // A code that could never be granted has no account to remove.
    if (!isValidTopicLevel(code) || code.includes('%')) return;
    return this.serialised(code, async () => {
      const [client] = await this.request(
        [
          { command: 'deleteClient', username: code },
          { command: 'deleteRole', rolename: deviceRole(code) },
        ],
        ['Client not found', 'Role not found'],
      );
      this.logger?.info({ code, existed: !client?.error }, 'device broker account revoked');
    });
  }

  async grantConsole(account: ConsoleBrokerAccount): Promise<void> {
    const { username, password, stationId } = account;
    const [client] = await this.withConsoleRoles([stationId], () =>
      this.request(
        [
          {
            command: 'createClient',
            username,
            password,
            roles: consoleRolesOf(account).map((rolename) => ({ rolename })),
          },
        ],
        // Creating an existing client changes nothing and disconnects nobody (Mosquitto 2.0.11).
        ['Client already exists'],
      ),
    );
    if (client?.error) await this.updateConsoles([account]);
  }

  async updateConsoles(readings: readonly ConsoleReading[]): Promise<number> {
    let changed = 0;
    for (let start = 0; start < readings.length; start += BATCH_SIZE) {
      const batch = readings.slice(start, start + BATCH_SIZE);
      changed += await this.withConsoleRoles(
        batch.map((reading) => reading.stationId),
        async () => {
          const clients = await this.request(
            batch.map((reading) => ({ command: 'getClient', username: reading.username })),
            ['Client not found'],
          );
          const stale = batch.filter(
            (reading, i) =>
              !clients[i]?.error && !sameNames(roleNamesOf(clients[i]), consoleRolesOf(reading)),
          );
          if (stale.length === 0) return 0;
          await this.request(
            stale.map((reading) => ({
              command: 'modifyClient',
              username: reading.username,
              roles: consoleRolesOf(reading).map((rolename) => ({ rolename })),
            })),
            // Removed meanwhile (its session ended): nothing to change.
            ['Client not found'],
          );
          return stale.length;
        },
      );
    }
    return changed;
  }

  async revokeConsoles(usernames: readonly string[]): Promise<void> {
    for (let start = 0; start < usernames.length; start += BATCH_SIZE) {
      const batch = usernames.slice(start, start + BATCH_SIZE);
      await this.request(
        batch.map((username) => ({ command: 'deleteClient', username })),
        ['Client not found'],
      );
    }
  }

  async listClients(): Promise<string[]> {
    const usernames: string[] = [];
    for (let offset = 0; ; offset += LIST_PAGE_SIZE) {
      const [response] = await this.request([
        { command: 'listClients', verbose: false, count: LIST_PAGE_SIZE, offset },
      ]);
      const clients = (response?.data as { clients?: unknown } | undefined)?.clients;
      const page = Array.isArray(clients) ? clients.filter((c): c is string => typeof c === 'string') : [];
      usernames.push(...page);
      if (page.length < LIST_PAGE_SIZE) return usernames;
    }
  }

  /**
   * Runs `step` once the console roles of these stations exist; when a role has gone from the broker
   * meanwhile (e.g. its dynsec file was replaced), they are made again and `step` runs once more.
   */
  private async withConsoleRoles<T>(stationIds: readonly string[], step: () => Promise<T>): Promise<T> {
    const stations = [...new Set(stationIds)];
    await Promise.all(stations.map((stationId) => this.consoleRoles(stationId)));
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof DynsecCommandError && error.reason === 'Role not found')) throw error;
      for (const stationId of stations) this.knownConsoleRoles.delete(stationId);
      await Promise.all(stations.map((stationId) => this.consoleRoles(stationId)));
      return step();
    }
  }

  /**
   * The station's console roles (the station's and one per kind), created if missing, once per process.
   * An existing role is modified only when its ACLs differ from these (an older version's, whose station
   * role let its holders receive every kind): its holders read by the new ACLs at once (Mosquitto 2.0.11
   * keeps them connected through a change of a role's ACLs).
   */
  private consoleRoles(stationId: string): Promise<void> {
    checkLevel('stationId', stationId);
    let known = this.knownConsoleRoles.get(stationId);
    if (!known) {
      const roles = [
        { rolename: consoleStationRole(stationId), acls: consoleStationAcls(stationId) },
        ...CONSOLE_EVENT_KINDS.map((kind) => ({
          rolename: consoleKindRole(stationId, kind),
          acls: consoleKindAcls(stationId, kind),
        })),
      ];
      known = (async () => {
        const created = await this.request(
          roles.map((role) => ({ command: 'createRole', ...role })),
          ['Role already exists'],
        );
        const existing = roles.filter((_, i) => created[i]?.error);
        if (existing.length === 0) return;
        const read = await this.request(existing.map(({ rolename }) => ({ command: 'getRole', rolename })));
        const stale = existing.filter(
          (role, i) =>
            !sameNames(
              aclKeysOf(read[i]),
              role.acls.map((acl) => `${acl.acltype} ${acl.allow} ${acl.topic}`),
            ),
        );
        if (stale.length === 0) return;
        await this.request(stale.map((role) => ({ command: 'modifyRole', ...role })));
        this.logger?.info({ roles: stale.map((role) => role.rolename) }, 'console roles brought up to date');
      })();
      this.knownConsoleRoles.set(stationId, known);
      // A failed attempt is made again by the next grant.
      known.catch(() => this.knownConsoleRoles.delete(stationId));
    }
    return known;
  }

  /** Stops listening for answers and fails requests still waiting; the bus itself stays open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, request] of this.pending) {
      clearTimeout(request.timer);
      this.pending.delete(id);
      request.reject(new Error('broker access closed'));
    }
    const listening = this.listening;
    this.listening = null;
    if (listening) await (await listening.catch(() => null))?.();
  }

  /**
   * The plugin disconnects a client whose roles change before it answers; when that client is this very
   * connection, the answer never comes. So the answer is awaited only until the bus has gone down and come
   * back (or the timeout), and the role is then read back.
   */
  private async assignServerRole(username: string): Promise<void> {
    if (await this.hasServerRole(username)) return;
    await new Promise<void>((resolve) => {
      let wentDown = false;
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, this.timeoutMs);
      const stop = this.bus.onConnectionChange((connected) => {
        if (!connected) wentDown = true;
        else if (wentDown) done();
      });
      this.request([{ command: 'addClientRole', username, rolename: SERVER_ROLE }]).then(done, done);
    });
    if (!(await this.hasServerRole(username))) {
      throw new Error(
        `the broker account ${JSON.stringify(username)} did not receive the role ${SERVER_ROLE}`,
      );
    }
  }

  private async hasServerRole(username: string): Promise<boolean> {
    const [response] = await this.request([{ command: 'getClient', username }]);
    const roles = (response?.data as { client?: { roles?: { rolename?: unknown }[] } } | undefined)?.client
      ?.roles;
    return Array.isArray(roles) && roles.some((role) => role.rolename === SERVER_ROLE);
  }

  private serialised(code: string, task: () => Promise<void>): Promise<void> {
    const previous = this.deviceQueues.get(code) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.deviceQueues.set(code, settled);
    void settled.then(() => {
      if (this.deviceQueues.get(code) === settled) this.deviceQueues.delete(code);
    });
    return next;
  }

  private listen(): Promise<unknown> {
    this.listening ??= this.bus.subscribe(CONTROL_RESPONSE_TOPIC, { qos: 1 }, (_topic, payload) =>
      this.onResponse(payload),
    );
    return this.listening;
  }

  /**
   * Sends the commands as one message and resolves with the plugin's answers, in order. An answer with an
   * error rejects with `DynsecCommandError`, unless its text is one of `tolerated` (then it is returned).
   */
  private async request(commands: DynsecCommand[], tolerated: string[] = []): Promise<DynsecResponse[]> {
    if (this.closed) throw new Error('broker access closed');
    try {
      await this.listen();
    } catch (error) {
      this.listening = null;
      throw new Error(
        `cannot subscribe to ${CONTROL_RESPONSE_TOPIC} (does the broker account hold the dynsec admin role?): ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    const id = `${this.instanceId}-${++this.sequence}`;
    const names = commands.map((c) => c.command);
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new Error(
            `dynamic security plugin did not answer ${names.join(', ')} within ${this.timeoutMs} ms ` +
              '(is mosquitto_dynamic_security loaded, and does the broker account hold its admin role?)',
          ),
        );
      }, this.timeoutMs);
      this.pending.set(id, {
        commands: names,
        responses: new Array(commands.length),
        received: 0,
        resolve,
        reject,
        timer,
      });
    });
    const body = JSON.stringify({
      commands: commands.map((command, index) => ({ ...command, correlationData: `${id}/${index}` })),
    });
    try {
      await this.bus.publish(CONTROL_TOPIC, body, { qos: 1 });
    } catch (error) {
      const request = this.pending.get(id);
      if (request) {
        clearTimeout(request.timer);
        this.pending.delete(id);
      }
      answered.catch(() => undefined);
      throw error;
    }
    const responses = await answered;
    for (const response of responses) {
      if (response.error && !tolerated.includes(response.error)) {
        throw new DynsecCommandError(response.command, response.error);
      }
    }
    return responses;
  }

  private onResponse(payload: Buffer): void {
    let items: unknown;
    try {
      items = (JSON.parse(payload.toString('utf8')) as { responses?: unknown }).responses;
    } catch {
      this.logger?.warn({ topic: CONTROL_RESPONSE_TOPIC }, 'unreadable dynamic security response ignored');
      return;
    }
    if (!Array.isArray(items)) return;
    for (const item of items as Record<string, unknown>[]) {
      const correlation = typeof item?.correlationData === 'string' ? item.correlationData : null;
      const slash = correlation?.lastIndexOf('/') ?? -1;
      if (!correlation || slash < 0) continue;
      // Answers to other servers' requests arrive here too and find no pending request.
      const request = this.pending.get(correlation.slice(0, slash));
      const index = Number(correlation.slice(slash + 1));
      if (!request || !Number.isInteger(index) || index < 0 || index >= request.responses.length) continue;
      if (request.responses[index]) continue;
      request.responses[index] = {
        command: typeof item.command === 'string' ? item.command : (request.commands[index] ?? ''),
        ...(typeof item.error === 'string' ? { error: item.error } : {}),
        ...(item.data !== undefined ? { data: item.data } : {}),
      };
      request.received++;
      if (request.received === request.responses.length) {
        clearTimeout(request.timer);
        this.pending.delete(correlation.slice(0, slash));
        request.resolve(request.responses as DynsecResponse[]);
      }
    }
  }
}
