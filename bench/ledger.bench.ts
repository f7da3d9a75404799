import { API_PREFIX, api } from '@uiot/contracts';
// The device ledger on the embedded database at size: page queries (first page, a deep page, a unit subtree,
// a sort on a joined column), the streamed export of every device, and an all-or-nothing import.
// Bounded in rows and requests; prints one line of JSON at the end.
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { DEFAULT_STATION } from '../apps/server/src/lib/station.ts';
import { machineFigures } from './machine.ts';
import { startBenchServer } from './support.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 2000);

// 10 lines of 20 stations; devices spread over the stations.
const seed = [
  `insert into operation_unit (id, name, station_id)
     select 'line-' || l, 'Line ' || l, '${DEFAULT_STATION.id}' from generate_series(1, 10) l`,
  `insert into operation_unit (id, name, parent_id, station_id)
     select 'station-' || l || '-' || s, 'Station ' || l || '-' || s, 'line-' || l, '${DEFAULT_STATION.id}'
     from generate_series(1, 10) l, generate_series(1, 20) s`,
  `insert into device_type (id, name, code, category, report_interval, heartbeat_interval)
     values ('nb', 'NB-IoT lock', 'NB', 'IoT', 3600, 300)`,
  `insert into device (name, code, unit_id, type_id, category, station_id, imei)
     select 'Lock ' || lpad(g::text, 6, '0'), 'L' || g, 'station-' || (g % 10 + 1) || '-' || (g % 20 + 1),
       'nb', 'IoT', '${DEFAULT_STATION.id}', (860000000000000 + g)::text
     from generate_series(1, ${DEVICES}) g`,
];
/** Taken before the server starts, on an idle machine. */
const machine = machineFigures();
let seedSeconds = 0;
const { base, headers, close } = await startBenchServer(async (database) => {
  const seedStarted = performance.now();
  for (const statement of seed) await database.db.execute(sql.raw(statement));
  seedSeconds = (performance.now() - seedStarted) / 1000;
});

let errors = 0;

/** Median and 99th percentile of `REQUESTS` sequential calls of one query, in ms. */
async function timeQuery(query: Record<string, string>): Promise<{ p50Ms: number; p99Ms: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const response = await fetch(
      `${base}${API_PREFIX}${api.device.queryPage.path}?${new URLSearchParams(query)}`,
      { headers },
    );
    const body = (await response.json()) as { success: boolean };
    if (!body.success) errors++;
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Number((latencies[Math.floor((latencies.length - 1) * p)] ?? 0).toFixed(1));
  return { p50Ms: pct(0.5), p99Ms: pct(0.99) };
}

const firstPage = await timeQuery({ pageIndex: '1', pageSize: '20' });
const deepPage = await timeQuery({ pageIndex: String(Math.floor(DEVICES / 20 / 2)), pageSize: '20' });
const unitSubtree = await timeQuery({ unitId: 'line-3', pageIndex: '1', pageSize: '20' });
const sortByUnit = await timeQuery({ sort: 'unitName', ascending: 'false', pageIndex: '1', pageSize: '20' });

// The export of every device, streamed.
const exportStarted = performance.now();
const exported = await fetch(`${base}${API_PREFIX}${api.device.export.path}`, { headers });
const exportBytes = (await exported.arrayBuffer()).byteLength;
if (exported.status !== 200) errors++;
const exportSeconds = (performance.now() - exportStarted) / 1000;

// An import of new devices made from the template.
const template = new ExcelJS.Workbook();
await template.xlsx.load(
  await (
    await fetch(`${base}${API_PREFIX}${api.device.importTemplate.path}?kind=device`, { headers })
  ).arrayBuffer(),
);
const sheet = template.worksheets[0]!;
const keys = (sheet.getRow(1).values as unknown[]).map((_, column) => {
  const note = sheet.getRow(1).getCell(column).note;
  return typeof note === 'string' ? note : (note?.texts?.map((t) => t.text).join('') ?? '');
});
const cellOf: Record<string, (i: number) => string> = {
  name: (i) => `Imported ${i}`,
  unitPath: (i) => `Line ${(i % 10) + 1}/Station ${(i % 10) + 1}-${(i % 20) + 1}`,
  typeCode: () => 'NB',
  code: (i) => `IMP${i}`,
  imei: (i) => String(870000000000000 + i),
};
for (let i = 1; i <= IMPORT_ROWS; i++) {
  sheet.addRow(keys.map((key) => cellOf[key]?.(i) ?? null));
}
const workbook = Buffer.from(await template.xlsx.writeBuffer());
const importStarted = performance.now();
// As the console does it: the workbook uploaded to the file store, then imported by its id.
const form = new FormData();
form.append(
  'file',
  new Blob([workbook], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
  'devices.xlsx',
);
const uploaded = await fetch(`${base}${API_PREFIX}${api.file.upload.path}?kind=import`, {
  method: 'POST',
  headers,
  body: form,
});
const upload = (await uploaded.json()) as { success: boolean; data: { id: string } | null; message?: string };
const imported = await fetch(`${base}${API_PREFIX}${api.device.import.path}`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ kind: 'device', fileId: upload.data?.id ?? '' }),
});
const importAnswer = (await imported.json()) as {
  success: boolean;
  message?: string;
  data: { imported?: number } | unknown[];
};
if (!importAnswer.success) {
  errors++;
  console.error(`import refused: ${upload.message ?? ''} ${importAnswer.message ?? ''}`);
}
const importSeconds = (performance.now() - importStarted) / 1000;

await close();

console.info(
  JSON.stringify({
    bench: 'ledger',
    database: 'pglite',
    devices: DEVICES,
    requestsPerQuery: REQUESTS,
    errors,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    firstPage,
    deepPage,
    unitSubtree,
    sortByUnit,
    exportSeconds: Number(exportSeconds.toFixed(1)),
    exportKiB: Math.round(exportBytes / 1024),
    machine,
    importRows: IMPORT_ROWS,
    importSeconds: Number(importSeconds.toFixed(1)),
  }),
);
