// Authenticated API throughput on the embedded database: every request resolves its session token and the
// user's permissions. Bounded in requests and time; prints one line of JSON at the end.
import { startBenchServer } from './support.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const { base, headers, close } = await startBenchServer();

const latencies: number[] = [];
let next = 0;
let errors = 0;
const started = performance.now();
const deadline = started + 60_000;
async function worker() {
  while (next < REQUESTS && performance.now() < deadline) {
    next++;
    const t0 = performance.now();
    const response = await fetch(`${base}/api/staff/getUserInfo`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) errors++;
    latencies.push(performance.now() - t0);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const elapsed = (performance.now() - started) / 1000;
await close();

latencies.sort((a, b) => a - b);
const pct = (p: number) => Number((latencies[Math.floor((latencies.length - 1) * p)] ?? 0).toFixed(2));
console.info(
  JSON.stringify({
    bench: 'api-session',
    database: 'pglite',
    requests: latencies.length,
    concurrency: CONCURRENCY,
    errors,
    rps: Math.round(latencies.length / elapsed),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
  }),
);
