/**
 * What an operator's console sees of the server while ingest runs: a steady trickle of HTTP requests, as
 * a console polling a page would send them, each waiting for the previous answer. Each probe measures one
 * path; latencies are kept per measuring window.
 */
import { quantile } from './quantile.ts';

export interface ProbeLatency {
  requests: number;
  failures: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export class HttpProbe {
  private latencies: number[] = [];
  private failures = 0;
  private running = true;
  private readonly loop: Promise<void>;

  /** Requests `url` every `intervalMs` (or right after the previous answer when that took longer). */
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    intervalMs = 100,
  ) {
    this.loop = this.run(intervalMs);
  }

  private async run(intervalMs: number): Promise<void> {
    while (this.running) {
      const started = performance.now();
      try {
        const response = await fetch(this.url, { headers: this.headers });
        await response.arrayBuffer();
        if (!response.ok) this.failures++;
      } catch {
        this.failures++;
      }
      const took = performance.now() - started;
      this.latencies.push(took);
      if (took < intervalMs) await new Promise((resolve) => setTimeout(resolve, intervalMs - took));
    }
  }

  /** Starts a new measuring window. */
  reset(): void {
    this.latencies = [];
    this.failures = 0;
  }

  snapshot(): ProbeLatency {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const round = (value: number | null) => (value === null ? null : Number(value.toFixed(1)));
    return {
      requests: sorted.length,
      failures: this.failures,
      p50Ms: round(quantile(sorted, 0.5)),
      p99Ms: round(quantile(sorted, 0.99)),
      maxMs: round(sorted.at(-1) ?? null),
    };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
