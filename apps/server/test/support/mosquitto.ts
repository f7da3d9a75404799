/**
 * Private Mosquitto 2 brokers for tests of the scale-out profile (ARCHITECTURE §1). Each instance runs
 * `mosquitto -c` as our own child, on a free port of 127.0.0.1, with its config, persistence file, log and
 * (optionally) dynamic-security file in a temp dir. The shared broker on 127.0.0.1:1883 is never touched.
 *
 * Settings and why (each checked against Mosquitto 2.0.11):
 * - `max_queued_messages 5000000`: Debian's default (1000) silently drops QoS 1 messages queued for a slow or
 *   offline session beyond 1000. `0` (no limit) is not used: in 2.0.11 it makes the broker disconnect a client
 *   after any PUBLISH it refuses, so one unauthorised publish would cut a device off, and a server whose
 *   account lacks one ACL would reconnect and resend forever.
 * - `max_inflight_messages 0`: no limit on unacknowledged QoS 1 messages towards a client (default 20). The
 *   server acknowledges after committing, and a window of 20 would throttle it to 20 messages per commit.
 * - `persistence true`: a SIGTERM'd broker writes its database on exit, queued QoS 1 messages of persistent
 *   sessions included; `autosave_interval 1` bounds what a SIGKILL loses to about one second.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/lib/test-support.ts';

export interface MosquittoOptions {
  /** Load the dynamic security plugin and refuse anonymous clients (default false). */
  dynsec?: boolean;
  /** Keep sessions and queued messages on disk across restarts (default true). */
  persistence?: boolean;
  /** Directory for config, database, log and dynsec file: a new or empty one (default: a new temp dir). */
  dir?: string;
  /**
   * Also listen for MQTT over WebSocket, as browsers connect (default false). Debian's Mosquitto 2.0 binds a
   * WebSocket listener to every address unless given an interface name: it is bound to `lo`.
   */
  webSocket?: boolean;
}

export interface MosquittoInstance {
  /** `mqtt://127.0.0.1:{port}` */
  url: string;
  port: number;
  /** `ws://127.0.0.1:{wsPort}/mqtt` with the `webSocket` option, else null. */
  wsUrl: string | null;
  /** Process id of the running broker (changes on restart). */
  pid: number;
  dir: string;
  /** The dynsec admin account (role `admin` of `mosquitto_ctrl dynsec init`), or null without dynsec. */
  admin: { username: string; password: string } | null;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** Sends `signal` (default SIGTERM) to the broker's PID and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the broker again on the same port, with the same dir and settings. */
  restart(): Promise<void>;
  /** Stops the broker and deletes its dir. */
  remove(): Promise<void>;
}

const MOSQUITTO_CANDIDATES = ['/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto'];
const CTRL_CANDIDATES = ['/usr/bin/mosquitto_ctrl', '/usr/local/bin/mosquitto_ctrl'];
const DYNSEC_PLUGIN_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
  '/usr/local/lib/mosquitto_dynamic_security.so',
];
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 5;

function firstExisting(candidates: string[]): string | null {
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** Whether Mosquitto (and, with `dynsec`, `mosquitto_ctrl` and the plugin) is installed here. */
export function mosquittoInstalled(options: { dynsec?: boolean } = {}): boolean {
  if (!firstExisting(MOSQUITTO_CANDIDATES)) return false;
  return !options.dynsec || (!!firstExisting(CTRL_CANDIDATES) && !!firstExisting(DYNSEC_PLUGIN_CANDIDATES));
}

function required(candidates: string[], what: string): string {
  const found = firstExisting(candidates);
  if (!found) throw new Error(`${what} not found (looked at ${candidates.join(', ')})`);
  return found;
}

/**
 * Run as root, Mosquitto switches to the `mosquitto` user, which must then own the dir to write its
 * database, log and dynsec file. Null when that is not needed (not root) or not possible (no such user).
 */
function brokerUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('mosquitto:'));
    const [, , uid, gid] = line?.split(':') ?? [];
    return uid && gid ? { uid: Number(uid), gid: Number(gid) } : null;
  } catch {
    return null;
  }
}

async function chownTree(dir: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir)) await chown(path.join(dir, entry), owner.uid, owner.gid);
}

function configText(
  port: number,
  wsPort: number | null,
  dir: string,
  options: Required<Omit<MosquittoOptions, 'dir' | 'webSocket'>>,
): string {
  const lines = [
    '# Written by apps/server/test/support/mosquitto.ts',
    `listener ${port} 127.0.0.1`,
    ...(wsPort ? [`listener ${wsPort} lo`, 'protocol websockets'] : []),
    'max_queued_messages 5000000',
    'max_inflight_messages 0',
    `log_dest file ${path.join(dir, 'mosquitto.log')}`,
    'log_type all',
  ];
  if (options.persistence) {
    lines.push('persistence true', `persistence_location ${dir}/`, 'autosave_interval 1');
  } else {
    lines.push('persistence false');
  }
  if (options.dynsec) {
    lines.push(
      'allow_anonymous false',
      `plugin ${required(DYNSEC_PLUGIN_CANDIDATES, 'mosquitto_dynamic_security.so')}`,
      `plugin_opt_config_file ${path.join(dir, 'dynamic-security.json')}`,
    );
  } else {
    lines.push('allow_anonymous true');
  }
  if (process.getuid?.() === 0 && !brokerUser()) lines.push('user root');
  return `${lines.join('\n')}\n`;
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function logTail(dir: string): Promise<string> {
  try {
    return (await readFile(path.join(dir, 'mosquitto.log'), 'utf8')).split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Brokers still running, ended if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const broker of running) {
      try {
        if (broker.pid) process.kill(broker.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Spawns the broker and waits until it accepts connections. Resolves null when it exited first (port
 * taken in the meantime, most likely); the caller decides whether to try another port.
 */
async function spawnBroker(configFile: string, port: number): Promise<ChildProcess | null> {
  const child = spawn(required(MOSQUITTO_CANDIDATES, 'mosquitto'), ['-c', configFile], { stdio: 'ignore' });
  track(child);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', () => {
    exited = true;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) return null;
    // Something else could answer on a port we lost the race for: only our live child counts.
    if ((await connects(port)) && !exited) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  await exitOf(child);
  throw new Error(`mosquitto did not listen on port ${port} within ${START_TIMEOUT_MS} ms`);
}

export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoInstance> {
  const settings = { dynsec: options.dynsec ?? false, persistence: options.persistence ?? true };
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'uiot-mosquitto-')));
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o700);
  const configFile = path.join(dir, 'mosquitto.conf');

  let admin: MosquittoInstance['admin'] = null;
  if (settings.dynsec) {
    const dynsecFile = path.join(dir, 'dynamic-security.json');
    if (existsSync(dynsecFile)) throw new Error(`${dynsecFile} exists already: pass a new or empty dir`);
    admin = { username: 'uiot-admin', password: randomBytes(24).toString('base64url') };
    // `init` takes the password as an argument (no prompt) and hashes it as the plugin expects.
    execFileSync(
      required(CTRL_CANDIDATES, 'mosquitto_ctrl'),
      ['dynsec', 'init', dynsecFile, admin.username, admin.password],
      { stdio: 'ignore' },
    );
  }

  let port = 0;
  let wsPort: number | null = null;
  let child: ChildProcess | null = null;
  for (let attempt = 1; attempt <= START_ATTEMPTS && !child; attempt++) {
    port = await freePort();
    wsPort = options.webSocket ? await freePort() : null;
    await writeFile(configFile, configText(port, wsPort, dir, settings));
    const owner = brokerUser();
    if (owner) await chownTree(dir, owner);
    child = await spawnBroker(configFile, port);
  }
  if (!child) {
    throw new Error(`mosquitto did not start after ${START_ATTEMPTS} attempts:\n${await logTail(dir)}`);
  }

  let current: ChildProcess = child;
  const signal = async (name: NodeJS.Signals, escalateAfterMs: number | null) => {
    const broker = current;
    const exited = exitOf(broker);
    if (broker.exitCode !== null || broker.signalCode !== null) return;
    if (broker.pid) process.kill(broker.pid, name);
    if (escalateAfterMs === null) return exited;
    const timer = setTimeout(() => broker.kill('SIGKILL'), escalateAfterMs);
    await exited;
    clearTimeout(timer);
  };

  const instance: MosquittoInstance = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    wsUrl: wsPort ? `ws://127.0.0.1:${wsPort}/mqtt` : null,
    pid: current.pid ?? 0,
    dir,
    admin,
    stop: () => signal('SIGTERM', STOP_TIMEOUT_MS),
    kill: (name = 'SIGTERM') => signal(name, null),
    async restart() {
      await signal('SIGTERM', STOP_TIMEOUT_MS);
      // The port was ours a moment ago; another process taking it in between is retried briefly.
      for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
        const next = await spawnBroker(configFile, port);
        if (next) {
          current = next;
          instance.pid = next.pid ?? 0;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`mosquitto did not restart on port ${port}:\n${await logTail(dir)}`);
    },
    async remove() {
      await signal('SIGTERM', STOP_TIMEOUT_MS);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return instance;
}
