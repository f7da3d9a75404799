// What machine a benchmark ran on, for its JSON line: the machines these figures come from differ from day to
// day (another processor, another speed for the same code), so a figure means little without it.
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';

export interface MachineFigures {
  /** The processor's model name, as the system gives it. */
  cpu: string;
  cores: number;
  /**
   * Milliseconds the reference work takes here, in one thread: the sum of four fixed pieces (integer
   * arithmetic, a sort, SHA-256 and JSON), each the fastest of seven runs once compiled. It varies by about
   * a tenth from run to run on one machine: two runs whose references differ by a fifth or more ran on
   * machines of different speeds, and their other figures are not a before and after.
   */
  referenceMs: number;
}

/** A fixed amount of arithmetic. */
function arithmetic(): number {
  let x = 0;
  for (let i = 0; i < 20_000_000; i++) x = (x * 31 + i) | 0;
  return x;
}

/** A sort of 200 000 numbers, the same ones every time. */
function sorting(): number {
  let seed = 11;
  const numbers = new Float64Array(200_000);
  for (let i = 0; i < numbers.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    numbers[i] = seed;
  }
  numbers.sort();
  return numbers[5]!;
}

const EIGHT_MB = Buffer.alloc(8 << 20, 7);
/** SHA-256 of 8 MB (the platform's native code). */
function hashing(): number {
  return createHash('sha256').update(EIGHT_MB).digest()[0]!;
}

/** 60 rounds of 200 heartbeat-like objects to JSON and back. */
function json(): number {
  const reports = Array.from({ length: 200 }, (_, i) => ({
    messageId: `r-${i}`,
    reportedAt: 1_700_000_000_000 + i,
    event: 'heartbeat',
    battery: i % 100,
  }));
  let n = 0;
  for (let round = 0; round < 60; round++) n += (JSON.parse(JSON.stringify(reports)) as unknown[]).length;
  return n;
}

/** The fastest of seven runs of `work`, after three to compile and warm it, in ms. */
function fastest(work: () => number): number {
  for (let i = 0; i < 3; i++) work();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** The machine's figures; takes about a second on the machines this runs on. */
export function machineFigures(): MachineFigures {
  const referenceMs = [arithmetic, sorting, hashing, json].reduce((sum, work) => sum + fastest(work), 0);
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    referenceMs: Math.round(referenceMs * 10) / 10,
  };
}
