// What an authenticated API request costs: every request resolves its session token and the user's
// permissions before its handler runs. Scenarios: the user's menus (nothing read but the session), the
// user's own information (one query) and a page of the staff list (two), each from a fixed number of
// clients, then a burst of paged GETs sent all at once. The server runs on the main thread, the clients in
// a child process. Bounded in requests and time; prints one line of JSON at the end (docs/performance.md,
// "API request cost").
//
//   npm run api-session -w bench -- [--database-url postgres://…] [--requests 5000] [--concurrency 32]
//                                   [--burst 2000] [--staff 200] [--warmup 1000]
// Each scenario first sends --warmup requests from up to 32 clients, left out of its figures.
import { parseArgs } from 'node:util';
import { API_PREFIX, api } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { type LoadResult, runLoad } from './http-load.ts';
import { machineFigures } from './machine.ts';
import { startBenchServer } from './support.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    requests: { type: 'string', default: process.env.BENCH_REQUESTS ?? '5000' },
    concurrency: { type: 'string', default: process.env.BENCH_CONCURRENCY ?? '32' },
    burst: { type: 'string', default: '2000' },
    staff: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '1000' },
  },
  strict: true,
});

function count(name: string, text: string | undefined, least = 1): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`--${name} must be a whole number of at least ${least}, not ${text}`);
  return value;
}

const REQUESTS = count('requests', flags.requests);
const CONCURRENCY = count('concurrency', flags.concurrency);
const BURST = count('burst', flags.burst);
const STAFF = count('staff', flags.staff);
const WARMUP = count('warmup', flags.warmup, 0);
/** Neither part of a scenario (warm-up, timed) runs longer than this. */
const SCENARIO_LIMIT_MS = 60_000;

/** Taken before the server starts, on an idle machine. */
const machine = machineFigures();
const server = await startBenchServer(
  async (database) => {
    await database.db.execute(
      sql.raw(`insert into staff (name, password_hash, status, must_change_password)
        select 'bench-staff-' || g, 'not-a-hash', 'activated', false from generate_series(1, ${STAFF}) g`),
    );
  },
  flags['database-url'] ? { databaseUrl: flags['database-url'] } : {},
);

/** One scenario against the server, its clients in a child process. */
function scenario(path: string, requests: number, concurrency: number): Promise<LoadResult> {
  return runLoad({
    url: `${server.base}${path}`,
    headers: server.headers,
    requests,
    concurrency,
    warmup: WARMUP,
    limitMs: SCENARIO_LIMIT_MS,
  });
}

/** The user's menus and keys: answered from the session alone, so it costs what any request costs. */
const MENUS = `${API_PREFIX}${api.auth.queryMenuRight.path}`;
const USER_INFO = `${API_PREFIX}${api.auth.getUserInfo.path}`;
const STAFF_PAGE = `${API_PREFIX}${api.staff.queryPage.path}?pageIndex=1&pageSize=20`;
let result: Record<string, unknown>;
try {
  // Each scenario's warm-up also compiles the server's code paths for its route and fills the session.
  result = {
    bench: 'api-session',
    warmup: WARMUP,
    database: flags['database-url'] ? 'postgres' : 'pglite',
    menus: await scenario(MENUS, REQUESTS, CONCURRENCY),
    userInfo: await scenario(USER_INFO, REQUESTS, CONCURRENCY),
    staffPage: await scenario(STAFF_PAGE, REQUESTS, CONCURRENCY),
    staffPageBurst: await scenario(STAFF_PAGE, BURST, BURST),
    machine,
  };
} finally {
  await server.close();
}
console.info(JSON.stringify(result));
