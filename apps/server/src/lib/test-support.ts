/** Helpers shared by the server's tests (not used by the server). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';

/**
 * The first port handed out. Ports from here up to the kernel's range for outgoing connections
 * (`ip_local_port_range`) are never given to a client socket, so none of the connections a test run makes
 * takes one between the check here and the bind of whatever the test starts on it (a port from `listen(0)`,
 * released for another process to bind, could be).
 */
const FIRST_PORT = 20_000;

/** The first port of the kernel's range for outgoing connections. */
function outgoingPortsStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FIRST_PORT + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports this process has handed out: never twice. */
const handedOut = new Set<number>();

/**
 * A port nobody listens on right now, below the range of outgoing connections, chosen at random (test files
 * run in parallel processes): for a server, broker or child process that the test starts on it.
 */
export async function freePort(): Promise<number> {
  const end = outgoingPortsStart();
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (end - FIRST_PORT));
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${end}`);
}

/** `count` distinct ports as `freePort` finds them. */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) ports.push(await freePort());
  return ports;
}

/** A promise held until `release` is called: a step of a test that waits for another, on demand. */
export function releasable(): { promise: Promise<void>; release: () => void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/** Whether something accepts TCP connections at host:port within the timeout. */
export function tcpAnswers(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

/** A logger that keeps what it is given, to check what was (and was not) logged. */
export function recordingLogger() {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** Polls until `condition` holds (it may be asynchronous), or fails after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Process ids of the live children of this process (Linux `pgrep -P`). */
export function childPids(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .filter((pid) => isAlive(pid));
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}

/** Whether a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}
