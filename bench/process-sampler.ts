/**
 * CPU time and resident memory of processes, read from Linux's /proc once a second: `cpuPct` is in percent
 * of one core (200 = both cores of a 2-core machine busy), like `top`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second of utime/stime (USER_HZ, 100 on every common Linux build). */
const TICKS_PER_SECOND = 100;

/** One thread of a process: its main thread has the process's id. */
export interface ThreadRef {
  pid: number;
  tid: number;
}

/** utime + stime of a process (or of one of its threads) in seconds, or null when it is gone. */
export function cpuSeconds(of: number | ThreadRef): number | null {
  try {
    const file = typeof of === 'number' ? `/proc/${of}/stat` : `/proc/${of.pid}/task/${of.tid}/stat`;
    const stat = readFileSync(file, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** VmRSS of a process in MiB, or null when it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, v) => sum + v, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** Process ids whose command name (`/proc/<pid>/comm`) is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** What a group of processes used between `mark` and `measure`. */
export interface GroupUsage {
  cpuPct: number;
  peakRssMb: number;
}

/**
 * Follows named groups of processes (e.g. "server", "broker") or threads (a thread counts CPU only; its memory
 * is its process's); the pids of a group are asked for at every sample, so a restarted broker or a new
 * database backend is picked up.
 */
export class ProcessSampler {
  private timer: NodeJS.Timeout | null = null;
  private readonly cpu = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly marks = new Map<string, { at: number; cpu: Map<string, number> }>();
  /** Last CPU reading of each pid: CPU of a pid that has exited is kept, not lost. */
  private readonly lastByPid = new Map<string, number>();

  constructor(private readonly groups: Record<string, () => Array<number | ThreadRef>>) {}

  start(intervalMs = 1000): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Starts a window named `name`: its CPU is counted from now, its peak memory from now. */
  mark(name: string): void {
    this.sample();
    for (const group of Object.keys(this.groups)) this.peak.set(`${name}:${group}`, 0);
    this.marks.set(name, { at: performance.now(), cpu: new Map(this.cpu) });
  }

  /** Usage of each group since `mark(name)`. */
  measure(name: string): Record<string, GroupUsage> {
    this.sample();
    const mark = this.marks.get(name);
    if (!mark) throw new Error(`no window ${name}`);
    const seconds = (performance.now() - mark.at) / 1000;
    const usage: Record<string, GroupUsage> = {};
    for (const group of Object.keys(this.groups)) {
      const used = (this.cpu.get(group) ?? 0) - (mark.cpu.get(group) ?? 0);
      usage[group] = {
        cpuPct: seconds > 0 ? Number(((used / seconds) * 100).toFixed(1)) : 0,
        peakRssMb: Number((this.peak.get(`${name}:${group}`) ?? 0).toFixed(1)),
      };
    }
    return usage;
  }

  private sample(): void {
    for (const [group, pidsOf] of Object.entries(this.groups)) {
      let rss = 0;
      for (const pid of pidsOf()) {
        const seconds = cpuSeconds(pid);
        if (seconds === null) continue;
        const key = `${group}:${typeof pid === 'number' ? pid : `${pid.pid}/${pid.tid}`}`;
        const before = this.lastByPid.get(key) ?? seconds;
        this.lastByPid.set(key, seconds);
        // The first sight of a pid counts from then on (a backend started mid-run brings no history).
        this.cpu.set(group, (this.cpu.get(group) ?? 0) + (seconds - before));
        if (typeof pid === 'number') rss += rssMb(pid) ?? 0;
      }
      for (const [key, peak] of this.peak) {
        if (key.endsWith(`:${group}`) && rss > peak) this.peak.set(key, rss);
      }
    }
  }
}
