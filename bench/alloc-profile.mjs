/**
 * Loaded into the ingest bench's server child by `--alloc-prof` (`--import`): samples what the server's main
 * thread allocates, the objects collected since included, and writes it at exit as a `.heapprofile` (Chrome
 * DevTools opens it) into the directory `BenchServerSettings.allocProfileDir` names. Unlike a CPU profile, the
 * bytes allocated per report hardly depend on how fast the machine runs at the moment.
 *
 * Plain JavaScript: the server's threads and child processes (the embedded database's thread, the embedded
 * broker) inherit the flag, and load it before any TypeScript loader; they leave it unused.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** One sample per 16 KB allocated on average. */
const SAMPLING_INTERVAL = 16 * 1024;

const dir = JSON.parse(process.env.BENCH_SERVER_CONFIG ?? '{}').allocProfileDir;
const isServer = isMainThread && /ingest-server\.ts$/.test(process.argv[1] ?? '');
if (isServer && typeof dir === 'string') {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  // The inspector answers at once on this thread: the profile is written before the process ends.
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) process.stderr.write(`[alloc-prof] no profile: ${error.message}\n`);
      else writeFileSync(path.join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
