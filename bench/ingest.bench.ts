// The ingest benchmark (ARCHITECTURE §1, §5): 1 000 simulated native-MQTT locks at a fixed offered rate
// against the whole server in a child process, then the same broker without the server (raw pass-through).
// A browser-like client subscribed to the console topics over WebSocket measures report → live event.
// Progress goes to stderr; one line of JSON goes to stdout at the end. See docs/performance.md.
//
//   npm run ingest -w bench -- --profile embedded|postgres --devices 1000 --rate 10000 --duration 30
//                              [--warmup 5] [--overload] [--recovery 30] [--raw-only] [--raw-rate N]
//                              [--database-url postgres://…] [--mosquitto-inflight N]
//                              [--broker-log FILE] [--server-log warn|info|error] [--cpu-prof] [--alloc-prof]
//                              [--repeat-seconds N]
//                              [--rules 200 --types 10 --fault-every 50]
// With --rules, the devices are spread over --types device types with the rules spread over them, and every
// --fault-every-th report of a device plays a low battery: one rule per type raises an alarm on it and clears
// it on the next report, the others are evaluated and never hold. Receipt (the alarm's warn time) → alarm
// event is measured; the report's way to the server is the arrival figure.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ADMIN_STAFF_ID, API_PREFIX, api } from '@uiot/contracts';
import { connectAsync } from 'mqtt';
import pg from 'pg';
import { openPglite, openPostgres } from '../apps/server/src/db/client.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../apps/server/src/infra/mqtt/embedded-broker.ts';
import { DEFAULT_STATION } from '../apps/server/src/lib/station.ts';
import { type MosquittoInstance, startMosquitto } from '../apps/server/test/support/mosquitto.ts';
import { childPids } from '../apps/server/test/support/processes.ts';
import {
  type ExpectedIds,
  type Fleet,
  type SimulatedDevice,
  startFleet,
} from '../apps/simulator/src/index.ts';
import { type AlarmLatency, type ConsoleLatency, ConsoleSubscriber } from './console-subscriber.ts';
import { HttpProbe, type ProbeLatency } from './http-prober.ts';
import type { BenchServerSettings } from './ingest-ipc.ts';
import { benchDeviceCode, type SeededDevice, seedIngestDatabase } from './ingest-seed.ts';
import { ServerChild, type ServerStats } from './ingest-server-child.ts';
import { machineFigures } from './machine.ts';
import { machineTicks, ProcessSampler, pidsNamed } from './process-sampler.ts';

// ---- options --------------------------------------------------------------------------------------------

const { values: flags } = parseArgs({
  options: {
    profile: { type: 'string', default: 'embedded' },
    devices: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    overload: { type: 'boolean', default: false },
    recovery: { type: 'string' },
    'raw-only': { type: 'boolean', default: false },
    'raw-rate': { type: 'string' },
    'raw-duration': { type: 'string' },
    'no-raw': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'alloc-prof': { type: 'boolean', default: false },
    'mosquitto-inflight': { type: 'string' },
    'broker-log': { type: 'string' },
    'server-log': { type: 'string', default: 'warn' },
    'repeat-seconds': { type: 'string' },
    rules: { type: 'string', default: '0' },
    types: { type: 'string', default: '10' },
    'fault-every': { type: 'string', default: '50' },
  },
  strict: true,
});

function serverLogLevel(text: string | undefined): BenchServerSettings['logLevel'] {
  if (text === 'warn' || text === 'info' || text === 'error') return text;
  throw new Error(`--server-log must be warn, info or error, not ${text}`);
}

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, not ${text}`);
  return value;
}

const profile = flags.profile;
if (profile !== 'embedded' && profile !== 'postgres')
  throw new Error('--profile must be embedded or postgres');
const serverLog = serverLogLevel(flags['server-log']);
/** The server's INGEST_REPEAT_SECONDS; its own default for the profile when not given. */
const REPEAT_SECONDS = flags['repeat-seconds'] === undefined ? undefined : Number(flags['repeat-seconds']);
if (
  REPEAT_SECONDS !== undefined &&
  !(Number.isInteger(REPEAT_SECONDS) && REPEAT_SECONDS >= 0 && REPEAT_SECONDS <= 10)
)
  throw new Error(`--repeat-seconds must be a whole number from 0 to 10, not ${flags['repeat-seconds']}`);
const DEVICES = Math.floor(positive('devices', flags.devices));
const RATE = positive('rate', flags.rate);
const DURATION_S = positive('duration', flags.duration);
const WARMUP_S = Number(flags.warmup ?? 5);
const RULES = Math.floor(Number(flags.rules ?? 0));
if (!Number.isFinite(RULES) || RULES < 0) throw new Error(`--rules must be 0 or more, not ${flags.rules}`);
const TYPES = RULES > 0 ? Math.floor(positive('types', flags.types)) : 1;
if (RULES > 0 && RULES < TYPES)
  throw new Error('--rules must be at least --types (one raising rule per type)');
const FAULT_EVERY = RULES > 0 ? Math.floor(positive('fault-every', flags['fault-every'])) : 0;
const RECOVERY_S = flags.recovery ? positive('recovery', flags.recovery) : Math.max(20, DURATION_S / 2);
const RAW_RATE = flags['raw-rate']
  ? positive('raw-rate', flags['raw-rate'])
  : flags.overload
    ? 2 * RATE
    : RATE;
const RAW_DURATION_S = flags['raw-duration']
  ? positive('raw-duration', flags['raw-duration'])
  : Math.min(DURATION_S, 20);
const ADMIN_URL =
  flags['database-url'] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Time allowed for unacknowledged reports to be acknowledged when a fleet stops. */
const FLEET_DRAIN_MS = 300_000;
/** Time allowed for the server to commit what it holds after a fleet stopped. */
const SERVER_DRAIN_MS = 300_000;
const STATION = DEFAULT_STATION.id;
const ADMIN_PASSWORD = `Bench-${randomBytes(9).toString('base64url')}`;

// ---- helpers --------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

function progress(message: string, fields: Record<string, unknown> = {}): void {
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? round(v, 1) : String(v)}`)
    .join(' ');
  process.stderr.write(
    `[ingest ${new Date().toISOString().slice(11, 19)}] ${message}${extra ? ` ${extra}` : ''}\n`,
  );
}

const fleetLogger = {
  info: () => {},
  warn: (o: object, m?: string) => progress(`fleet: ${m ?? ''}`, o as Record<string, unknown>),
};

/** Everything started, stopped in reverse order at the end, on failure and on Ctrl-C. */
const cleanups: Array<{ name: string; run: () => Promise<void> }> = [];
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      await step
        .run()
        .catch((error: unknown) => progress(`clean-up of ${step.name} failed: ${String(error)}`));
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lost = published but not found, per device; surplus = found more often than published (never expected). */
function compare(expected: ExpectedIds, found: (index: number) => number): { lost: number; surplus: number } {
  let lost = 0;
  let surplus = 0;
  expected.perDevice.forEach((count, index) => {
    const got = found(index);
    if (got < count) lost += count - got;
    else surplus += got - count;
  });
  return { lost, surplus };
}

function simulated(devices: SeededDevice[] | null, withSecrets: boolean): SimulatedDevice[] {
  return Array.from({ length: DEVICES }, (_, index) => ({
    stationId: STATION,
    code: benchDeviceCode(index),
    protocol: 'mqtt' as const,
    ...(withSecrets && devices ? { secret: devices[index]!.secret } : {}),
  }));
}

async function startLoad(devices: SimulatedDevice[], mqttUrl: string, rate: number): Promise<Fleet> {
  const fleet = startFleet({
    devices,
    mqttUrl,
    mode: { kind: 'load', rate, ...(FAULT_EVERY ? { faultEvery: FAULT_EVERY } : {}) },
    logger: fleetLogger,
  });
  cleanups.push({ name: 'fleet', run: () => fleet.stop({ drainMs: 0 }) });
  const started = performance.now();
  await withTimeout(fleet.ready, 180_000, 'connecting the fleet');
  progress('fleet connected', { devices: devices.length, seconds: (performance.now() - started) / 1000 });
  return fleet;
}

interface SamplingNode {
  selfSize: number;
  children: SamplingNode[];
}

/** The bytes a sampling heap profile estimates were allocated in all. */
function sampledBytes(profile: { head: SamplingNode }): number {
  let total = 0;
  const stack = [profile.head];
  for (let node = stack.pop(); node; node = stack.pop()) {
    total += node.selfSize;
    stack.push(...node.children);
  }
  return total;
}

/** The main thread's allocations per report received, from the profile `alloc-profile.mjs` wrote. */
async function allocatedPerReport(dir: string, received: number): Promise<{ kbPerReport: number } | null> {
  const file = (await readdir(dir)).find((name) => name.endsWith('.heapprofile'));
  if (!file || received === 0) return null;
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Parameters<
    typeof sampledBytes
  >[0];
  const bytes = sampledBytes(profile);
  progress('allocation profile written', { file: path.join(dir, file), mb: round(bytes / 1e6, 1) });
  return { kbPerReport: round(bytes / received / 1000, 2) };
}

// ---- raw pass-through: the same broker without the server -------------------------------------------------

interface RawResult {
  rawOfferedPerSec: number;
  rawBrokerPerSec: number;
  rawLost: number;
  rawBrokerCpuPct: number;
  rawBrokerRssMb: number;
  rawBenchCpuPct: number;
}

async function rawPassThrough(
  mosquitto: MosquittoInstance | null,
  devices: SeededDevice[] | null,
): Promise<RawResult> {
  let broker: EmbeddedBroker | null = null;
  let url: string;
  let subscriberLogin: { username?: string; password?: string } = {};
  if (mosquitto) {
    url = mosquitto.url;
  } else {
    broker = await startEmbeddedBroker({
      host: '127.0.0.1',
      port: 0,
      wsPort: 0,
      logger: {
        info: () => {},
        warn: (o, m) => progress(`raw broker: ${m}`, o as never),
        error: (o, m) => progress(`raw broker: ${m}`, o as never),
      },
      // Admits the bench's device codes without a database: this run measures the broker alone.
      authorize: async ({ username }) =>
        username && /^B\d{6}$/.test(username)
          ? { kind: 'device', stationId: STATION, deviceCode: username }
          : null,
    });
    const started = broker;
    cleanups.push({ name: 'raw broker', run: () => started.stop() });
    url = broker.url;
    subscriberLogin = broker.internalCredentials;
  }
  const subscriber = await connectAsync(url, {
    protocolVersion: 4,
    clientId: `bench-raw-${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: 0,
    ...subscriberLogin,
  });
  cleanups.push({ name: 'raw subscriber', run: () => subscriber.endAsync(true) });
  const received = new Array<number>(DEVICES).fill(0);
  let total = 0;
  subscriber.on('message', (topic) => {
    // dev/{station}/B000123/up
    const index = Number(topic.split('/')[2]?.slice(1));
    if (index >= 0 && index < DEVICES) received[index]!++;
    total++;
  });
  await subscriber.subscribeAsync('dev/+/+/up', { qos: 1 });

  const brokerPid = () => (mosquitto ? [mosquitto.pid] : broker?.pid ? [broker.pid] : []);
  const sampler = new ProcessSampler({ broker: brokerPid, bench: () => [process.pid] });
  sampler.start();
  progress('raw pass-through: starting the fleet', { rate: RAW_RATE, url });
  const fleet = await startLoad(simulated(devices, !mosquitto), url, RAW_RATE);
  await sleep(WARMUP_S * 1000);
  const t0 = performance.now();
  const r0 = total;
  const o0 = fleet.stats.offered;
  sampler.mark('raw');
  for (let elapsed = 0; elapsed < RAW_DURATION_S; elapsed += 5) {
    const before = total;
    await sleep(Math.min(5, RAW_DURATION_S - elapsed) * 1000);
    progress('raw', { receivedPerSec: (total - before) / Math.min(5, RAW_DURATION_S - elapsed) });
  }
  const seconds = (performance.now() - t0) / 1000;
  const r1 = total;
  const o1 = fleet.stats.offered;
  const usage = sampler.measure('raw');
  sampler.stop();
  await fleet.stop({ drainMs: FLEET_DRAIN_MS });
  // The subscriber receives what the broker still holds.
  let last = -1;
  while (total !== last) {
    last = total;
    await sleep(1000);
  }
  const { lost } = compare(fleet.expectedIds(), (index) => received[index] ?? 0);
  await subscriber.endAsync(true);
  await broker?.stop();
  return {
    rawOfferedPerSec: round((o1 - o0) / seconds),
    rawBrokerPerSec: round((r1 - r0) / seconds),
    rawLost: lost,
    rawBrokerCpuPct: usage.broker!.cpuPct,
    rawBrokerRssMb: usage.broker!.peakRssMb,
    rawBenchCpuPct: usage.bench!.cpuPct,
  };
}

// ---- end to end: fleet → broker → server → database -------------------------------------------------------

interface PhaseResult {
  fleet: Fleet;
  seconds: number;
  offeredPerSec: number;
  publishedPerSec: number;
  sustainedPerSec: number;
  latency: ServerStats['snapshot']['latencyMs'];
  /** Report → taken by the server's pipeline (the fleet, the network and the broker). */
  arrival: ServerStats['snapshot']['arrivalMs'];
  /** Report → runtime event in the browser-like client. */
  console: ConsoleLatency;
  /** Receipt of the report that raised an alarm → its first event in the browser-like client (--rules). */
  alarms: AlarmLatency;
  /** HTTP answers while the load ran. */
  http: ReturnType<HttpProbes['snapshot']>;
  /** The server main thread's event-loop delay over the window. */
  loopDelayMs: ServerStats['loopDelayMs'];
  usage: ReturnType<ProcessSampler['measure']>;
  machineCpuPct: number;
  /** Seconds from the fleet's stop until the server had committed everything. */
  drainSeconds: number;
  unacknowledged: number;
  /** Mean reports per committed batch in the window. */
  meanBatch: number;
  /** Runtime rows written per second, and devices' updates left out as repeats (INGEST_REPEAT_SECONDS). */
  runtimeWritesPerSec: number;
  runtimeRepeatsPerSec: number;
}

async function waitServerIdle(server: ServerChild): Promise<void> {
  const deadline = Date.now() + SERVER_DRAIN_MS;
  let last = -1;
  for (;;) {
    const { snapshot } = await server.stats();
    if (snapshot.queued === 0 && snapshot.stored === last) return;
    if (Date.now() > deadline)
      throw new Error(`the server still held ${snapshot.queued} reports after the drain time`);
    last = snapshot.stored;
    await sleep(1000);
  }
}

async function loadPhase(
  name: string,
  server: ServerChild,
  subscriber: ConsoleSubscriber,
  probes: HttpProbes,
  sampler: ProcessSampler,
  devices: SimulatedDevice[],
  rate: number,
  seconds: number,
): Promise<PhaseResult> {
  progress(`${name}: starting the fleet`, { rate, seconds });
  const fleet = await startLoad(devices, server.mqttUrl, rate);
  await sleep(WARMUP_S * 1000);
  await server.resetLatency();
  subscriber.reset();
  probes.reset();
  const s0 = (await server.stats()).snapshot;
  const f0 = { ...fleet.stats };
  const m0 = machineTicks();
  sampler.mark(name);
  const t0 = performance.now();
  let previous = { stored: s0.stored, offered: f0.offered, at: t0 };
  // (a remainder under 100 ms is not worth a progress line of its own)
  while (seconds * 1000 - (performance.now() - t0) > 100) {
    await sleep(Math.min(5000, seconds * 1000 - (performance.now() - t0)));
    const { snapshot } = await server.stats();
    const now = performance.now();
    const dt = (now - previous.at) / 1000;
    progress(name, {
      t: (now - t0) / 1000,
      offeredPerSec: (fleet.stats.offered - previous.offered) / dt,
      storedPerSec: (snapshot.stored - previous.stored) / dt,
      queued: snapshot.queued,
      unacked: fleet.stats.published - fleet.stats.acknowledged,
      p99: snapshot.latencyMs.p99 ?? '-',
      consoleP99: subscriber.snapshot().p99Ms ?? '-',
      ...(RULES > 0 ? { alarms: subscriber.alarmSnapshot().raised } : {}),
      httpP99: probes.snapshot().page.p99Ms ?? '-',
    });
    previous = { stored: snapshot.stored, offered: fleet.stats.offered, at: now };
  }
  const end = await server.stats();
  const s1 = end.snapshot;
  const consoleLatency = subscriber.snapshot();
  const alarmLatency = subscriber.alarmSnapshot();
  const http = probes.snapshot();
  const f1 = { ...fleet.stats };
  const m1 = machineTicks();
  const elapsed = (performance.now() - t0) / 1000;
  const usage = sampler.measure(name);
  const stopAt = performance.now();
  await fleet.stop({ drainMs: FLEET_DRAIN_MS });
  const unacknowledged = fleet.stats.published - fleet.stats.acknowledged;
  await waitServerIdle(server);
  const drainSeconds = (performance.now() - stopAt) / 1000;
  progress(`${name}: drained`, { seconds: drainSeconds, unacknowledged });
  return {
    fleet,
    seconds: elapsed,
    offeredPerSec: round((f1.offered - f0.offered) / elapsed),
    publishedPerSec: round((f1.published - f0.published) / elapsed),
    sustainedPerSec: round((s1.stored - s0.stored) / elapsed),
    latency: s1.latencyMs,
    arrival: s1.arrivalMs,
    console: consoleLatency,
    alarms: alarmLatency,
    http,
    loopDelayMs: end.loopDelayMs,
    usage,
    machineCpuPct: round(((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100, 1),
    drainSeconds: round(drainSeconds, 1),
    unacknowledged,
    meanBatch: round((s1.stored - s0.stored) / Math.max(1, s1.batches - s0.batches), 1),
    runtimeWritesPerSec: round((s1.runtimeWrites - s0.runtimeWrites) / elapsed),
    runtimeRepeatsPerSec: round((s1.runtimeRepeats - s0.runtimeRepeats) / elapsed),
  };
}

/** The histogram's bucket bound, but never above the largest latency seen. */
function quantile(latency: PhaseResult['latency'], which: 'p50' | 'p99'): number | null {
  const bound = latency[which];
  return bound === null || latency.max === null ? bound : Math.min(bound, round(latency.max));
}

async function lossOf(server: ServerChild, seeded: SeededDevice[], fleet: Fleet) {
  const expected = fleet.expectedIds();
  const counts = new Map((await server.storedCounts(expected.runPrefix)).map((c) => [c.deviceId, c]));
  const { lost, surplus } = compare(expected, (index) => counts.get(seeded[index]!.deviceId)?.rows ?? 0);
  let duplicateRows = 0;
  for (const c of counts.values()) duplicateRows += c.rows - c.distinctIds;
  return { published: expected.total, lost, duplicates: duplicateRows + surplus };
}

/** Signs in as the administrator, as the console does; returns the session token. */
async function signIn(server: ServerChild): Promise<string> {
  const response = await fetch(`${server.url}${API_PREFIX}${api.auth.loginCheck.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: ADMIN_STAFF_ID, pwd: ADMIN_PASSWORD }),
  });
  const envelope = (await response.json()) as { success: boolean; data: { token: string }; message: string };
  if (!envelope.success) throw new Error(`signing in: ${envelope.message}`);
  return envelope.data.token;
}

/**
 * The browser-like client: on the embedded broker's WebSocket listener with the administrator's session
 * token, as the console signs in; on the harness's Mosquitto (anonymous) on its WebSocket listener.
 */
async function connectConsole(
  server: ServerChild,
  mosquitto: MosquittoInstance | null,
  token: string,
): Promise<ConsoleSubscriber> {
  if (mosquitto) return ConsoleSubscriber.connect(mosquitto.wsUrl!, STATION, null);
  return ConsoleSubscriber.connect(server.consoleWsUrl!, STATION, {
    username: ADMIN_STAFF_ID,
    password: token,
  });
}

/**
 * A console at work during the load: the health probe and the first page of the runtime monitor, each
 * asked ten times a second with the administrator's session.
 */
class HttpProbes {
  private readonly health: HttpProbe;
  private readonly page: HttpProbe;

  constructor(server: ServerChild, token: string) {
    const headers = { authorization: `Bearer ${token}` };
    this.health = new HttpProbe(`${server.url}${API_PREFIX}${api.system.health.path}`, headers);
    this.page = new HttpProbe(
      `${server.url}${API_PREFIX}${api.runtime.queryPage.path}?pageIndex=1&pageSize=20`,
      headers,
    );
  }

  reset(): void {
    this.health.reset();
    this.page.reset();
  }

  snapshot(): { health: ProbeLatency; page: ProbeLatency } {
    return { health: this.health.snapshot(), page: this.page.snapshot() };
  }

  async stop(): Promise<void> {
    await Promise.all([this.health.stop(), this.page.stop()]);
  }
}

// ---- main -----------------------------------------------------------------------------------------------

async function main(): Promise<Record<string, unknown>> {
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const machine = machineFigures();
  let mosquitto: MosquittoInstance | null = null;
  if (profile === 'postgres') {
    mosquitto = await startMosquitto({ persistence: false, webSocket: true });
    const started = mosquitto;
    cleanups.push({ name: 'mosquitto', run: () => started.remove() });
    // The harness logs every packet (for tests); a production broker does not, and at 10 000 reports/s
    // that log alone costs the broker CPU time. Logged here: errors, warnings, notices, connections.
    // Optionally the QoS 1 window towards each client is bounded (the harness leaves it unlimited).
    const configFile = path.join(mosquitto.dir, 'mosquitto.conf');
    let text = (await readFile(configFile, 'utf8')).replace(
      /^log_type all$/m,
      ['log_type error', 'log_type warning', 'log_type notice', 'log_type information'].join('\n'),
    );
    if (flags['mosquitto-inflight']) {
      const inflight = Math.floor(positive('mosquitto-inflight', flags['mosquitto-inflight']));
      text = text.replace(/^max_inflight_messages .*$/m, `max_inflight_messages ${inflight}`);
    }
    await writeFile(configFile, text);
    await mosquitto.restart();
    if (flags['broker-log']) {
      const logFile = flags['broker-log'];
      const dir = mosquitto.dir;
      cleanups.push({ name: 'broker log', run: () => copyFile(path.join(dir, 'mosquitto.log'), logFile) });
    }
    progress('mosquitto started', {
      url: mosquitto.url,
      pid: mosquitto.pid,
      maxInflight: flags['mosquitto-inflight'] ?? 'unlimited',
    });
  }

  // The raw run comes first: an external broker would otherwise queue its reports for the server's
  // persistent session.
  const raw = flags['no-raw'] ? null : await rawPassThrough(mosquitto, null);
  if (raw) progress('raw pass-through done', { ...raw });
  if (flags['raw-only']) {
    return {
      bench: 'ingest',
      profile,
      devices: DEVICES,
      rawOnly: true,
      ...raw,
      loadAtStart,
      machine,
      startedAt,
    };
  }

  // The database: prepared here, closed, then opened by the server child.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'uiot-bench-ingest-'));
  cleanups.push({ name: 'data dir', run: () => rm(dataDir, { recursive: true, force: true }) });
  let databaseUrl: string | undefined;
  if (profile === 'postgres') {
    const name = `uiot_bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    cleanups.push({
      name: 'bench database',
      run: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    });
    databaseUrl = withDatabase(ADMIN_URL, name);
  }
  const seedStarted = performance.now();
  const database = databaseUrl
    ? await openPostgres(databaseUrl, 2)
    : await openPglite(path.join(dataDir, 'db'));
  const seeded = await seedIngestDatabase(database, DEVICES, ADMIN_PASSWORD, {
    types: TYPES,
    rules: RULES,
  }).finally(() => database.close());
  progress('database seeded', { devices: DEVICES, seconds: (performance.now() - seedStarted) / 1000 });

  const profileDir = flags['cpu-prof'] ? await mkdtemp(path.join(tmpdir(), 'uiot-bench-prof-')) : null;
  const allocDir = flags['alloc-prof'] ? await mkdtemp(path.join(tmpdir(), 'uiot-bench-alloc-')) : null;
  const server = await ServerChild.start(
    {
      dataDir,
      ...(databaseUrl ? { databaseUrl } : {}),
      ...(mosquitto ? { mqttUrl: mosquitto.url } : {}),
      adminPassword: ADMIN_PASSWORD,
      logLevel: serverLog,
      ...(REPEAT_SECONDS === undefined ? {} : { repeatSeconds: REPEAT_SECONDS }),
      ...(allocDir ? { allocProfileDir: allocDir } : {}),
    },
    [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      ...(allocDir
        ? ['--import', pathToFileURL(path.join(import.meta.dirname, 'alloc-profile.mjs')).href]
        : []),
    ],
  );
  cleanups.push({ name: 'server', run: () => server.stop() });
  progress('server started', { pid: server.pid, url: server.url, mqtt: server.mqttUrl });

  const sampler = new ProcessSampler({
    server: () => [server.pid],
    // The server's main thread: MQTT, ingest, HTTP (the embedded database has a thread of its own).
    serverMain: () => [{ pid: server.pid, tid: server.pid }],
    broker: () => (mosquitto ? [mosquitto.pid] : childPids(server.pid)),
    // Every backend of the PostgreSQL cluster (the bench database's and any other work on it).
    database: () => (profile === 'postgres' ? pidsNamed('postgres') : []),
    bench: () => [process.pid],
  });
  sampler.start();
  cleanups.push({ name: 'sampler', run: async () => sampler.stop() });
  const devices = simulated(seeded, !mosquitto);
  const token = await signIn(server);
  const subscriber = await connectConsole(server, mosquitto, token);
  cleanups.push({ name: 'console subscriber', run: () => subscriber.close() });
  const probes = new HttpProbes(server, token);
  cleanups.push({ name: 'http probes', run: () => probes.stop() });

  const firstRate = flags.overload ? 2 * RATE : RATE;
  const measured = await loadPhase(
    flags.overload ? 'overload' : 'run',
    server,
    subscriber,
    probes,
    sampler,
    devices,
    firstRate,
    DURATION_S,
  );
  const recovery = flags.overload
    ? await loadPhase('recovery', server, subscriber, probes, sampler, devices, RATE, RECOVERY_S)
    : null;
  const losses = [await lossOf(server, seeded, measured.fleet)];
  if (recovery) losses.push(await lossOf(server, seeded, recovery.fleet));
  const final = await server.stats();
  const serverAliveAtEnd = !server.hasExited;
  sampler.stop();
  await server.stop();
  if (profileDir) progress('CPU profiles written', { dir: profileDir });
  const allocated = allocDir ? await allocatedPerReport(allocDir, final.snapshot.received) : null;

  const usage = measured.usage;
  const result: Record<string, unknown> = {
    bench: 'ingest',
    profile,
    database: profile === 'postgres' ? 'postgresql' : 'pglite',
    /** INGEST_REPEAT_SECONDS as the server ran with it (its default: 5). */
    repeatSeconds: REPEAT_SECONDS ?? 5,
    broker: profile === 'postgres' ? 'mosquitto' : 'aedes',
    devices: DEVICES,
    durationS: round(measured.seconds, 1),
    offeredPerSec: measured.offeredPerSec,
    publishedPerSec: measured.publishedPerSec,
    sustainedPerSec: measured.sustainedPerSec,
    p50Ms: quantile(measured.latency, 'p50'),
    p99Ms: quantile(measured.latency, 'p99'),
    maxMs: measured.latency.max === null ? null : round(measured.latency.max),
    arrivalP50Ms: measured.arrival.p50,
    arrivalP99Ms: measured.arrival.p99,
    consoleP50Ms: measured.console.p50Ms,
    consoleP99Ms: measured.console.p99Ms,
    consoleMaxMs: measured.console.maxMs,
    consoleChanges: measured.console.changes,
    consoleEvents: measured.console.events,
    consoleInvalid: measured.console.invalid,
    rules: RULES,
    ...(RULES > 0
      ? {
          types: TYPES,
          faultEvery: FAULT_EVERY,
          alarmsRaised: measured.alarms.raised,
          alarmP50Ms: measured.alarms.p50Ms,
          alarmP99Ms: measured.alarms.p99Ms,
          alarmMaxMs: measured.alarms.maxMs,
        }
      : {}),
    httpHealthP50Ms: measured.http.health.p50Ms,
    httpHealthP99Ms: measured.http.health.p99Ms,
    httpPageP50Ms: measured.http.page.p50Ms,
    httpPageP99Ms: measured.http.page.p99Ms,
    httpFailures: measured.http.health.failures + measured.http.page.failures,
    ...(allocated ? { serverAllocatedKbPerReport: allocated.kbPerReport } : {}),
    serverLoopDelayP99Ms: measured.loopDelayMs.p99,
    serverLoopDelayMaxMs: measured.loopDelayMs.max,
    lost: losses.reduce((sum, l) => sum + l.lost, 0),
    duplicates: losses.reduce((sum, l) => sum + l.duplicates, 0),
    redeliveries: final.snapshot.duplicates,
    published: losses.reduce((sum, l) => sum + l.published, 0),
    unacknowledged: measured.unacknowledged + (recovery?.unacknowledged ?? 0),
    rejected: Object.values(final.snapshot.rejected).reduce((sum, n) => sum + n, 0),
    failedBatches: final.snapshot.failedBatches,
    drainS: measured.drainSeconds,
    meanBatch: measured.meanBatch,
    runtimeWritesPerSec: measured.runtimeWritesPerSec,
    runtimeRepeatsPerSec: measured.runtimeRepeatsPerSec,
    serverCpuPct: usage.server!.cpuPct,
    serverMainCpuPct: usage.serverMain!.cpuPct,
    serverRssMb: usage.server!.peakRssMb,
    brokerCpuPct: usage.broker!.cpuPct,
    brokerRssMb: usage.broker!.peakRssMb,
    ...(profile === 'postgres' ? { databaseCpuPct: usage.database!.cpuPct } : {}),
    benchCpuPct: usage.bench!.cpuPct,
    machineCpuPct: measured.machineCpuPct,
    brokerRestarts: final.brokerRestarts,
    ...(raw ?? {}),
    ratio: raw && raw.rawBrokerPerSec > 0 ? round(measured.sustainedPerSec / raw.rawBrokerPerSec, 3) : null,
    loadAtStart,
    machine,
    startedAt,
  };
  if (recovery) {
    result.overload = {
      rate: RATE,
      offeredPerSec: measured.offeredPerSec,
      deliveredPerSec: measured.sustainedPerSec,
      deliveredShareOfRate: round(measured.sustainedPerSec / RATE, 3),
      serverRssMb: usage.server!.peakRssMb,
      brokerRssMb: usage.broker!.peakRssMb,
    };
    result.recovery = {
      offeredPerSec: recovery.offeredPerSec,
      sustainedPerSec: recovery.sustainedPerSec,
      p50Ms: quantile(recovery.latency, 'p50'),
      p99Ms: quantile(recovery.latency, 'p99'),
      consoleP99Ms: recovery.console.p99Ms,
      serverRssMb: recovery.usage.server!.peakRssMb,
      brokerRssMb: recovery.usage.broker!.peakRssMb,
      serverCpuPct: recovery.usage.server!.cpuPct,
      drainS: recovery.drainSeconds,
      sameServerProcess: serverAliveAtEnd && final.brokerRestarts === 0,
    };
  }
  return result;
}

try {
  const result = await main();
  await cleanUp();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} catch (error) {
  progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanUp();
  process.exit(1);
}
