import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX, api } from '@uiot/contracts';

const SERVER_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`, or `https://` when TLS_CERT is set. */
  url: string;
  /** The certificate of a server started with TLS_CERT (self-signed in tests): trusted by `waitReady`. */
  ca?: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Runs the real server entry (`src/main.ts`) as `npm start` does, on the given environment. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ca = env.TLS_CERT ? readFileSync(env.TLS_CERT, 'utf8') : undefined;
  return {
    child,
    url: `${ca ? 'https' : 'http'}://127.0.0.1:${env.PORT}`,
    ...(ca ? { ca } : {}),
    output: () => output,
    exited,
  };
}

/** The status of GET `url` (over HTTPS trusting `ca` when given). */
function statusOf(url: string, ca: string | undefined): Promise<number> {
  if (!ca) return fetch(url).then((response) => response.status);
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

/** Waits until the readiness endpoint answers 200, or fails with the server's output. */
export async function waitReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => {
    ended = true;
  });
  while (Date.now() < deadline) {
    if (ended) throw new Error(`server exited before it was ready:\n${server.output()}`);
    try {
      if ((await statusOf(`${server.url}${API_PREFIX}${api.system.ready.path}`, server.ca)) === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${server.output()}`);
}
