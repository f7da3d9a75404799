import { errorMessage, LogThrottle, type ModuleLogger } from '../../lib/module-logger.ts';
import type { AlarmsChanged } from '../alarms/index.ts';
import type { CommandUpdate } from '../commands/index.ts';
import type { IngestCommit, RunStateChange, WentOffline } from '../iot/index.ts';
import type { OperationsRecorded } from '../tasks/index.ts';
import type { ConsoleEventPublisher } from './console-events.ts';
import {
  byStation,
  commandChangeOf,
  commandFinishedNotificationOf,
  offlineChangeOf,
  runStateChangeOf,
  runtimeChangeOf,
} from './console-events-changes.ts';
import type { DevicePlaces } from './console-events-devices.ts';
import type { NotificationHub } from './notification-hub.ts';

export interface ConsoleEventFeedOptions {
  publisher: ConsoleEventPublisher;
  places: DevicePlaces;
  /** Where the issuer of a command hears that it ended. */
  notifications: Pick<NotificationHub, 'notify'>;
  logger: ModuleLogger;
}

/**
 * Turns committed changes into console events: runtime data from ingest and the offline sweep, command
 * states from the command service, and the issuer's notification when a command ends. Called after the
 * commits, on the paths that made them: it never throws and never waits for the bus.
 */
export class ConsoleEventFeed {
  /** Command changes are handled one call after another, so their events keep the order they happened in. */
  private commandChain: Promise<void> = Promise.resolve();
  private readonly failureLog = new LogThrottle();

  constructor(private readonly options: ConsoleEventFeedOptions) {}

  ingestCommitted(commit: IngestCommit): void {
    const groups = byStation(commit.runtime, (u) => u.stationId, runtimeChangeOf);
    for (const [stationId, changes] of groups) this.options.publisher.runtime(stationId, changes);
  }

  /** Alarms raised, reminded, acknowledged or closed go to the `alarm` topic of their station. */
  alarmsChanged({ alarms }: AlarmsChanged): void {
    const groups = byStation(
      alarms,
      (a) => a.stationId,
      (a) => a.change,
    );
    for (const [stationId, changes] of groups) this.options.publisher.alarms(stationId, changes);
  }

  /** Operation records made or moved on go to the `operation` topic of their station. */
  operationsRecorded({ records }: OperationsRecorded): void {
    const groups = byStation(
      records,
      (r) => r.stationId,
      (r) => r,
    );
    for (const [stationId, changes] of groups) this.options.publisher.operations(stationId, changes);
  }

  devicesOffline(devices: readonly WentOffline[]): void {
    const groups = byStation(devices, (d) => d.stationId, offlineChangeOf);
    for (const [stationId, changes] of groups) this.options.publisher.runtime(stationId, changes);
  }

  runStatesChanged(changes: readonly RunStateChange[]): void {
    const groups = byStation(changes, (c) => c.stationId, runStateChangeOf);
    for (const [stationId, runtime] of groups) this.options.publisher.runtime(stationId, runtime);
  }

  commandsChanged(updates: readonly CommandUpdate[]): void {
    this.commandChain = this.commandChain
      .then(() => this.publishCommands(updates))
      .catch((error: unknown) => this.failed(error));
  }

  /** Resolves once the command changes handed in so far are published (tests, shutdown). */
  settled(): Promise<void> {
    return this.commandChain;
  }

  private async publishCommands(updates: readonly CommandUpdate[]): Promise<void> {
    const places = await this.options.places.of(updates.map((u) => u.command.deviceId));
    const groups = byStation(
      updates,
      (u) => places.get(u.command.deviceId)?.stationId,
      (u) => commandChangeOf(u.command),
    );
    for (const [stationId, changes] of groups) this.options.publisher.commands(stationId, changes);
    for (const { command, finished } of updates) {
      if (!finished || !command.staffId) continue;
      const name = places.get(command.deviceId)?.name ?? null;
      void this.options.notifications.notify(command.staffId, commandFinishedNotificationOf(command, name));
    }
  }

  private failed(error: unknown): void {
    if (this.failureLog.allows()) {
      this.options.logger.warn({ error: errorMessage(error) }, 'command changes not published');
    }
  }
}
