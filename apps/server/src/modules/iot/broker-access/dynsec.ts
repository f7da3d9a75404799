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
 * their station, which lets them read that station's console topics and nothing else.
 */

import { randomBytes } from 'node:crypto';
import type { ModuleLogger } from '../../../lib/module-logger.ts';
import type { BusClient } from '../../realtime/bus-client.ts';
import { consoleTopicPrefix, deviceTopic, isValidTopicLevel } from '../../realtime/topic-acl.ts';

export interface DeviceBrokerAccess {
  /** Lets the device connect with this secret (creates or replaces its broker account). */
  grant(device: { stationId: string; code: string; secret: string }): Promise<void>;
  /** Removes the device's broker account and disconnects it. */
  revoke(code: string): Promise<void>;
}

/** A browser's account on the broker: it may read its station's console topics, nothing else. */
export interface ConsoleBrokerAccount {
  username: string;
  password: string;
  stationId: string;
}

/** The broker accounts of browsers (console accounts). */
export interface ConsoleBrokerAccess {
  /**
   * Creates the account unless it exists. An existing one is left as it is: changing it would disconnect
   * the browser's connection that already uses it.
   */
  grantConsole(account: ConsoleBrokerAccount): Promise<void>;
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
/** Accounts removed per request. */
const REVOKE_BATCH_SIZE = 100;
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
 * Reading a station's console topics: subscribing to `/UIOT/{stationId}/#` or a filter below it, and receiving
 * what is published there. Nothing may be published: no ACL allows it.
 */
function consoleAcls(stationId: string): Acl[] {
  const topics = `${consoleTopicPrefix(stationId)}#`;
  return [
    { acltype: 'subscribePattern', topic: topics, allow: true },
    { acltype: 'publishClientReceive', topic: topics, allow: true },
  ];
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
  /** Console roles known to exist, per station (created once per process; see `consoleRole`). */
  private readonly consoleRoles = new Map<string, Promise<string>>();
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
    const create = async () => {
      const rolename = await this.consoleRole(stationId);
      await this.request(
        [{ command: 'createClient', username, password, roles: [{ rolename }] }],
        // Creating an existing client changes nothing and disconnects nobody (Mosquitto 2.0.11).
        ['Client already exists'],
      );
    };
    try {
      await create();
    } catch (error) {
      // The role was known here but has gone from the broker (e.g. its dynsec file was replaced).
      if (!(error instanceof DynsecCommandError && error.reason === 'Role not found')) throw error;
      this.consoleRoles.delete(stationId);
      await create();
    }
  }

  async revokeConsoles(usernames: readonly string[]): Promise<void> {
    for (let start = 0; start < usernames.length; start += REVOKE_BATCH_SIZE) {
      const batch = usernames.slice(start, start + REVOKE_BATCH_SIZE);
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
   * The station's console role, created if missing. An existing role is never modified: Mosquitto would
   * disconnect every browser holding it.
   */
  private consoleRole(stationId: string): Promise<string> {
    checkLevel('stationId', stationId);
    let role = this.consoleRoles.get(stationId);
    if (!role) {
      const rolename = `${CONSOLE_ROLE_PREFIX}${stationId}`;
      role = this.request(
        [{ command: 'createRole', rolename, acls: consoleAcls(stationId) }],
        ['Role already exists'],
      ).then(() => rolename);
      this.consoleRoles.set(stationId, role);
      // A failed attempt is made again by the next grant.
      role.catch(() => this.consoleRoles.delete(stationId));
    }
    return role;
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
