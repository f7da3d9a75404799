import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import { defineModule } from '../../module.ts';
import { PinService } from './pin.service.ts';
import { pinsRoutes } from './pins.routes.ts';

export type { PinLockout } from './events.ts';
export { PinService } from './pin.service.ts';

/** How often the devices with deletions waiting are read again (another instance may have revoked). */
const WATCH_REFRESH_MS = 60_000;

/** Offline PINs: generated under the "who may open" decision, verified by the locks offline (docs/offline-pins.md). */
export const pinsModule = defineModule({
  name: 'pins',
  needs: ['tasks', 'commands', 'deviceCredentials'],
  build: ({ db, options, events }, { tasks, commands, deviceCredentials }) => ({
    pins: new PinService({
      db,
      operations: tasks.operations,
      credentials: deviceCredentials,
      commands,
      events,
      logger: options.commandLog ?? SILENT_LOGGER,
      now: options.now,
    }),
  }),
  subscribe: (events, { pins }) => {
    // A lock's PIN reports count on their PINs and become operation records; a lock heard is sent the
    // deletions it has not confirmed.
    events.subscribe('report.stored', 'offline PINs', async (commit) => {
      const reported = commit.reported.flatMap((r) =>
        r.pinReports ? [{ deviceId: r.deviceId, stationId: r.stationId, reports: r.pinReports }] : [],
      );
      if (reported.length > 0) await pins.reported(reported);
      await pins.devicesHeard(commit.runtime);
    });
    events.subscribe('command.changed', 'offline PINs', (updates) => pins.commandsChanged(updates));
    events.subscribe('pinSecret.replaced', 'offline PINs', ({ deviceId, at }) =>
      pins.secretReplaced(deviceId, new Date(at)),
    );
  },
  routes: (services) => pinsRoutes(services),
  jobs: ({ services, logger }) =>
    startPeriodicJobs(
      [
        {
          name: 'pin-deletions-watch',
          intervalMs: WATCH_REFRESH_MS,
          run: () => services.pins.refreshWatched(),
          atStart: true,
        },
      ],
      logger('pins'),
      'devices with PIN deletions waiting not read',
    ),
});
