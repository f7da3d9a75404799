// HTTP load from a child process, so that the clients do not share the server's event loop (or its core):
// `requests` GETs from `concurrency` clients, each sending its next one when answered (keep-alive), after
// `warmup` untimed ones (a new process's HTTP client is slow until compiled, and a run of a few seconds
// would measure that instead of the server).

import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface LoadScenario {
  url: string;
  headers: Record<string, string>;
  requests: number;
  concurrency: number;
  /**
   * GETs sent first and left out of the figures, by at most `concurrency` and WARMUP_CLIENTS clients at a
   * time: a burst's clients still connect within its timed part.
   */
  warmup?: number;
  /** Neither the warm-up nor the timed part runs longer than this. */
  limitMs: number;
}

export interface LoadResult {
  requests: number;
  concurrency: number;
  /** Answers other than HTTP 200 with `success: true`. */
  errors: number;
  /** The same, of the warm-up. */
  warmupErrors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

function get(url: string, headers: Record<string, string>, agent: http.Agent): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { success?: boolean };
        resolve(response.statusCode === 200 && body.success === true);
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Enough clients to keep the server busy while the client's code is compiled. */
const WARMUP_CLIENTS = 32;

async function run(scenario: LoadScenario): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let warming = scenario.warmup ?? 0;
  let warmupErrors = 0;
  const warmupDeadline = performance.now() + scenario.limitMs;
  const warmClient = async () => {
    while (warming > 0 && performance.now() < warmupDeadline) {
      warming--;
      const ok = await get(scenario.url, scenario.headers, agent).catch(() => false);
      if (!ok) warmupErrors++;
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(scenario.concurrency, WARMUP_CLIENTS, warming) }, warmClient),
  );
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + scenario.limitMs;
  async function client() {
    while (next < scenario.requests && performance.now() < deadline) {
      next++;
      const t0 = performance.now();
      const ok = await get(scenario.url, scenario.headers, agent).catch(() => false);
      if (!ok) errors++;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: Math.min(scenario.concurrency, scenario.requests) }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Number((latencies[Math.floor((latencies.length - 1) * p)] ?? 0).toFixed(2));
  return {
    requests: latencies.length,
    concurrency: scenario.concurrency,
    errors,
    warmupErrors,
    rps: Math.round(latencies.length / elapsed),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
  };
}

const CHILD_FLAG = '--http-load-child';

/** Runs a scenario in a child process of its own. */
export function runLoad(scenario: LoadScenario): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: ['--import', 'tsx'] });
    let result: LoadResult | null = null;
    child.once('message', (message) => {
      result = message as LoadResult;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`load process exited with code ${code}`));
    });
    child.send(scenario);
  });
}

if (process.argv.includes(CHILD_FLAG)) {
  process.once('message', (scenario) => {
    void run(scenario as LoadScenario).then((result) => process.send?.(result, () => process.exit(0)));
  });
}
