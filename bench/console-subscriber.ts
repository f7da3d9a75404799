/**
 * A browser-like client of the console topics for the ingest benchmark: it connects to the broker's
 * WebSocket listener as the console does (MQTT 3.1.1 over WebSocket, QoS 0, `/UIOT/{stationId}/#`) and
 * measures, for each runtime change it receives, the time from the device's report (`reportTime`, the
 * simulated lock's own clock, which is this machine's) to its arrival here.
 */
import { consoleEvent, consoleSubscription } from '@uiot/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { LOAD_FAULT_BATTERY } from '../apps/simulator/src/index.ts';
import { quantile } from './quantile.ts';

/** Report → alarm event: from a fault report's own time to the alarm it raised arriving here. */
export interface AlarmLatency {
  raised: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface ConsoleLatency {
  /** Runtime changes and runtime messages received in the window. */
  changes: number;
  events: number;
  /** Messages that were not JSON or did not match the contract, since the start (expected: none). */
  invalid: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export class ConsoleSubscriber {
  private latencies: number[] = [];
  private changes = 0;
  private events = 0;
  private received = 0;
  /** Messages that were not JSON or did not match the contract (expected: none). */
  private invalid = 0;
  /** When each device last reported a fault (battery at LOAD_FAULT_BATTERY), by its report time. */
  private readonly faultAt = new Map<string, number>();
  private alarmLatencies: number[] = [];

  private constructor(private readonly client: MqttClient) {
    client.on('message', (_topic, payload) => this.receive(payload));
  }

  /** Connects and subscribes; `login` is the staff id and session token the embedded broker asks for. */
  static async connect(
    wsUrl: string,
    stationId: string,
    login: { username: string; password: string } | null,
  ): Promise<ConsoleSubscriber> {
    const client = await connectAsync(wsUrl, {
      protocolVersion: 4,
      clientId: `bench-console-${process.pid}`,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 0,
      ...(login ?? {}),
    });
    const subscriber = new ConsoleSubscriber(client);
    const granted = await client.subscribeAsync(consoleSubscription(stationId), { qos: 0 });
    if (granted[0]?.qos !== 0) throw new Error('the console subscription was refused');
    return subscriber;
  }

  private receive(payload: Buffer): void {
    const now = Date.now();
    let parsed: { kind?: unknown; changes?: unknown[] };
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      this.invalid++;
      return;
    }
    // Every 50th message is checked against the contract in full; the others are read as they come, so that
    // measuring costs the machine little.
    if (this.received++ % 50 === 0 && !consoleEvent.safeParse(parsed).success) {
      this.invalid++;
      return;
    }
    if (parsed.kind === 'alarm' && Array.isArray(parsed.changes)) {
      this.alarmRaised(
        now,
        parsed.changes as Array<{ deviceId?: string; state?: string; sendCount?: number }>,
      );
      return;
    }
    if (parsed.kind !== 'runtime' || !Array.isArray(parsed.changes)) return;
    this.events++;
    for (const change of parsed.changes as Array<{
      reportTime?: string | null;
      deviceId?: string;
      battery?: number;
    }>) {
      this.changes++;
      if (!change.reportTime) continue;
      const reportedAt = Date.parse(change.reportTime);
      this.latencies.push(now - reportedAt);
      if (change.battery === LOAD_FAULT_BATTERY && change.deviceId)
        this.faultAt.set(change.deviceId, reportedAt);
    }
  }

  /** A newly raised alarm (Warn, told once) of a device whose fault report was seen: its latency. */
  private alarmRaised(
    now: number,
    changes: Array<{ deviceId?: string; state?: string; sendCount?: number }>,
  ) {
    for (const change of changes) {
      if (change.state !== 'Warn' || change.sendCount !== 1 || !change.deviceId) continue;
      const reportedAt = this.faultAt.get(change.deviceId);
      if (reportedAt === undefined) continue;
      this.faultAt.delete(change.deviceId);
      this.alarmLatencies.push(now - reportedAt);
    }
  }

  alarmSnapshot(): AlarmLatency {
    const sorted = [...this.alarmLatencies].sort((a, b) => a - b);
    return {
      raised: sorted.length,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? null,
    };
  }

  /** Starts a new measuring window. */
  reset(): void {
    this.latencies = [];
    this.changes = 0;
    this.events = 0;
    this.alarmLatencies = [];
  }

  snapshot(): ConsoleLatency {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      changes: this.changes,
      events: this.events,
      invalid: this.invalid,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? null,
    };
  }

  close(): Promise<void> {
    return this.client.endAsync(true);
  }
}
