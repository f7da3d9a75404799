// Authenticated API throughput on the embedded database: every request resolves its session token and the
// user's permissions. Bounded in requests and time; prints one line of JSON at the end.
import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { openPglite } from '../apps/server/src/db/client.ts';
import { ensureBuiltInAccounts } from '../apps/server/src/modules/org/admin-account.ts';
import { createServices } from '../apps/server/src/services.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PASSWORD = 'Bench-Admin-2026';

const database = await openPglite(null);
await database.migrate();
const services = createServices(database.db, { sessionIdleSeconds: 3600, sessionMaxSeconds: 7200 });
await services.params.seedDefaults();
await ensureBuiltInAccounts(database.db, PASSWORD);
const app = await buildApp({
  config: { corsOrigins: [], webDistDir: '/nonexistent', mqttWsPort: 8083, logLevel: 'silent' },
  database,
  services,
  busConnected: () => true,
  logger: false,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const login = await fetch(`${base}/api/staff/loginCheck`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: ADMIN_STAFF_ID, pwd: PASSWORD }),
});
const { data } = (await login.json()) as { data: { token: string } };
const headers = { authorization: `Bearer ${data.token}` };

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
await app.close();
await database.close();

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
