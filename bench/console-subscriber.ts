/**
 * A browser-like client of the console topics for the ingest benchmark: it connects to the broker's
 * WebSocket listener as the console does (MQTT 3.1.1 over WebSocket, QoS 0, `/UIOT/{stationId}/#`) and
 * measures, for each runtime change it receives, the time from the device's report (`reportTime`, the
 * simulated lock's own clock, which is this machine's) to its arrival here; and, for each alarm, the time
 * from its warn time (when the server received the report that raised it) to its first arrival here.
 */
import { consoleEvent, consoleSubscription } from '@uiot/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { MillisecondHistogram } from './quantile.ts';

/**
 * Receipt → alarm event: from an alarm's warn time (the server's receipt of the report that raised it) to the
 * first event of that alarm arriving here, whatever its state then (an alarm raised and cleared by reports
 * evaluated together arrives once, already Normal). The report's way to the server is `arrival`.
 */
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
  private latencies = new MillisecondHistogram();
  private changes = 0;
  private events = 0;
  private received = 0;
  /** Messages that were not JSON or did not match the contract (expected: none). */
  private invalid = 0;
  /** Alarms whose first event has arrived. */
  private readonly seenAlarms = new Set<string>();
  private alarmLatencies = new MillisecondHistogram();

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
      this.alarmRaised(now, parsed.changes as Array<{ id?: string; warnTime?: string }>);
      return;
    }
    if (parsed.kind !== 'runtime' || !Array.isArray(parsed.changes)) return;
    this.events++;
    for (const change of parsed.changes as Array<{
      reportTime?: string | null;
    }>) {
      this.changes++;
      if (!change.reportTime) continue;
      const reportedAt = Date.parse(change.reportTime);
      this.latencies.add(now - reportedAt);
    }
  }

  /** Alarm changes: the first of each alarm gives its latency. */
  private alarmRaised(now: number, changes: Array<{ id?: string; warnTime?: string }>) {
    for (const change of changes) {
      if (!change.id || !change.warnTime || this.seenAlarms.has(change.id)) continue;
      this.seenAlarms.add(change.id);
      this.alarmLatencies.add(now - Date.parse(change.warnTime));
    }
  }

  alarmSnapshot(): AlarmLatency {
    const latencies = this.alarmLatencies;
    return {
      raised: latencies.count,
      p50Ms: latencies.quantile(0.5),
      p99Ms: latencies.quantile(0.99),
      maxMs: latencies.max(),
    };
  }

  /** Starts a new measuring window. */
  reset(): void {
    this.latencies = new MillisecondHistogram();
    this.changes = 0;
    this.events = 0;
    this.alarmLatencies = new MillisecondHistogram();
  }

  snapshot(): ConsoleLatency {
    return {
      changes: this.changes,
      events: this.events,
      invalid: this.invalid,
      p50Ms: this.latencies.quantile(0.5),
      p99Ms: this.latencies.quantile(0.99),
      maxMs: this.latencies.max(),
    };
  }

  close(): Promise<void> {
    return this.client.endAsync(true);
  }
}
