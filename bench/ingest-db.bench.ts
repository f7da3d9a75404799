// What the embedded database costs per report, without the broker, the fleet and the console that share the
// machine in bench/ingest: the statements an ingest batch runs (the history insert and the runtime upsert, as
// `writeAtOnce` sends them to the database thread), timed apart and together, in rounds that alternate so
// that a machine whose speed drifts affects each alike. CPU is the whole process (the main thread building
// the statements and the database thread running them). Prints one line of JSON at the end.
//
//   npm run ingest-db -w bench -- [--batch 1000] [--devices 1000] [--reports 40000] [--rounds 3]
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { type BatchStep, transactionBatch } from '../apps/server/src/db/batch.ts';
import { openPglite } from '../apps/server/src/db/client.ts';
import {
  type HistoryInsert,
  insertHistoryQuery,
  upsertRuntimeQuery,
} from '../apps/server/src/modules/iot/ingest/ingest.repository.ts';
import type { RuntimeUpdate } from '../apps/server/src/modules/iot/ingest/runtime-merge.ts';
import { NO_HINTS } from '../apps/server/src/modules/iot/run-states.ts';
import { seedIngestDatabase } from './ingest-seed.ts';
import { machineFigures } from './machine.ts';

const { values } = parseArgs({
  options: {
    batch: { type: 'string', default: '1000' },
    devices: { type: 'string', default: '1000' },
    reports: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '3' },
  },
});
const BATCH = Math.max(1, Number(values.batch));
const DEVICES = Math.max(1, Number(values.devices));
const REPORTS = Math.max(BATCH, Number(values.reports));
const ROUNDS = Math.max(1, Number(values.rounds));

type Kind = 'both' | 'history' | 'runtime';

/** Taken before the database starts, on an idle machine. */
const machine = machineFigures();
const database = await openPglite(null);
const devices = await seedIngestDatabase(database, DEVICES, 'Bench-Admin-2026');
const start = Date.now();
let sequence = 0;

/** The next batch of heartbeats, the devices in turn (as the fleet sends them), as the pipeline writes it. */
function nextBatch(kind: Kind): BatchStep[] {
  const rows: HistoryInsert[] = [];
  const latest = new Map<string, RuntimeUpdate>();
  for (let i = 0; i < BATCH; i++, sequence++) {
    const device = devices[sequence % devices.length]!;
    const messageId = `r-${sequence % DEVICES}-${String(Math.floor(sequence / DEVICES)).padStart(8, '0')}`;
    const at = start + sequence;
    const report = {
      messageId,
      reportedAt: at,
      event: 'heartbeat',
      lock: 'closed',
      door: 'closed',
      battery: 87,
    };
    rows.push({
      deviceId: device.deviceId,
      deviceSeq: device.seq,
      messageId,
      protocol: 'mqtt',
      reportTime: at,
      receiveTime: at + 3,
      raw: JSON.stringify(report),
      content: null,
    });
    latest.set(device.deviceId, {
      deviceId: device.deviceId,
      lastCollectTime: at,
      lastMessageId: messageId,
      lockState: 'closed',
      doorState: 'closed',
      battery: 87,
      runState: 'normal',
    });
  }
  const updates = [...latest.values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1));
  const steps: BatchStep[] = [];
  if (kind !== 'runtime') {
    steps.push({
      query: insertHistoryQuery(rows, 'allNew'),
      name: 'ingest_history',
    });
  }
  if (kind !== 'history')
    steps.push({ query: upsertRuntimeQuery(updates, NO_HINTS), name: 'ingest_runtime' });
  return steps;
}

/** CPU and wall time per report of `REPORTS` reports written as `kind`, in µs. */
async function measure(kind: Kind): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const wallStart = performance.now();
  for (let done = 0; done < REPORTS; done += BATCH) {
    const outcome = await transactionBatch(database.db, nextBatch(kind));
    if (!outcome.done) throw new Error('a batch was undone: a report was stored twice');
  }
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / REPORTS,
    wallUs: ((performance.now() - wallStart) * 1000) / REPORTS,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;

const kinds: Kind[] = ['both', 'history', 'runtime'];
for (const kind of kinds) await measure(kind); // warm-up: statements prepared, tables past their first pages
// The statistics of a running fleet, as the server's upkeep takes them within its first minute
// (db/maintenance.ts); the prepared statements are planned again with them.
await database.db.execute(sql`analyze`);
const samples = new Map<Kind, Array<{ cpuUs: number; wallUs: number }>>(kinds.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const kind of kinds) {
    const sample = await measure(kind);
    samples.get(kind)!.push(sample);
    process.stderr.write(`[ingest-db] round ${r + 1} ${kind}: ${round1(sample.cpuUs)} µs CPU per report\n`);
  }
}
await database.close();

const figures = Object.fromEntries(
  kinds.map((kind) => {
    const s = samples.get(kind)!;
    return [
      kind,
      {
        cpuUsPerReport: round1(median(s.map((x) => x.cpuUs))),
        cpuUsRange: [round1(Math.min(...s.map((x) => x.cpuUs))), round1(Math.max(...s.map((x) => x.cpuUs)))],
        wallUsPerReport: round1(median(s.map((x) => x.wallUs))),
      },
    ];
  }),
);
process.stdout.write(
  `${JSON.stringify({
    bench: 'ingest-db',
    database: 'pglite',
    batchSize: BATCH,
    devices: DEVICES,
    reportsPerMeasure: REPORTS,
    rounds: ROUNDS,
    ...figures,
    machine,
  })}\n`,
);
