import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import { defineModule } from '../../module.ts';
import { AlarmService } from './alarm.service.ts';
import { AlarmBoardService } from './alarm-board.service.ts';
import { AlarmNotifier } from './alarm-notifier.ts';
import { AlarmRunner } from './alarm-runner.ts';
import { alarmsRoutes } from './alarms.routes.ts';
import { WarnRuleService } from './warn-rule.service.ts';
import './events.ts';

export { AlarmService } from './alarm.service.ts';
export {
  AlarmBoardService,
  boardUsername,
  isBoardUsername,
  sessionOfBoardUsername,
} from './alarm-board.service.ts';
export { AlarmNotifier } from './alarm-notifier.ts';
export { AlarmRunner } from './alarm-runner.ts';
export type { AlarmsChanged } from './events.ts';
export { WarnRuleService } from './warn-rule.service.ts';

/** How often the Delay and resend timers whose time has come are looked for. */
const TIMER_PASS_MS = 1000;
/** How often notifications due for delivery (new ones, retries) are looked for. */
const NOTICE_PASS_MS = 1000;

/** What the alarms module serves to the others. */
export interface AlarmsServices {
  /** Warn rules and the property catalogue of device types. */
  warnRules: WarnRuleService;
  /** Evaluates stored reports against the rules, fires timers, resets and acknowledges alarms. */
  runner: AlarmRunner;
  /** Device alarm records. */
  alarms: AlarmService;
  /** E-mail, SMS and app push notifications of alarms. */
  notifier: AlarmNotifier;
  /** The control-room board: display links, their one-time codes and display sessions. */
  board: AlarmBoardService;
}

/** Warn rules, the property catalogue of device types, and the alarms they raise (docs/alarms.md). */
export const alarmsModule = defineModule({
  name: 'alarms',
  needs: ['mail'],
  build: ({ db, events, config, options }, { mail }) => {
    // Rule caches of every instance reload a type whose rules changed anywhere.
    events.declareShared('warnRule.changed');
    // A revoked board's broker connection may be held by another instance's broker client.
    events.declareShared('alarmBoard.revoked');
    const logger = options.alarmLog ?? SILENT_LOGGER;
    const notifier = new AlarmNotifier(db, mail, {
      webhooks: config.noticeWebhooks ?? {},
      logger,
      events,
      ...(options.alarmClock ? { now: options.alarmClock } : {}),
    });
    const runner = new AlarmRunner(db, events, notifier, logger, options.alarmClock);
    const alarms: AlarmsServices = {
      warnRules: new WarnRuleService(db, events),
      runner,
      alarms: new AlarmService(db, runner, {
        exportMaxRows: options.exportMaxRows,
        clock: options.alarmClock,
      }),
      notifier,
      board: new AlarmBoardService(db, events, options.now),
    };
    return { alarms };
  },
  subscribe: (events, { alarms }) => {
    events.subscribe('report.stored', 'alarms', (commit) =>
      alarms.runner.reportsStored(
        commit.runtime.map((r) => ({
          deviceId: r.deviceId,
          at: r.lastCollectTime,
          reported: {
            lockState: r.lockState,
            doorState: r.doorState,
            battery: r.battery,
            rssi: r.rssi,
            props: r.props,
          },
        })),
      ),
    );
    // Changes no report brings (a door open too long, going offline) are evaluated like reports.
    events.subscribe('runtime.runState', 'alarms', (changes) =>
      alarms.runner.devicesChanged(changes.map((c) => c.deviceId)),
    );
    events.subscribe('runtime.offline', 'alarms', (devices) =>
      alarms.runner.devicesChanged(devices.map((d) => d.deviceId)),
    );
    // An opening a lock reported that nothing covered (the tasks module's records).
    events.subscribe('opening.uncovered', 'alarms', (opening) =>
      alarms.runner.raiseBuiltIn('uncoveredOpening', opening, opening.at),
    );
    // Wrong PINs locked a keypad out (the pins module's reports).
    events.subscribe('pin.lockout', 'alarms', (lockout) =>
      alarms.runner.raiseBuiltIn('pinLockout', lockout, lockout.at),
    );
    events.subscribe('warnRule.changed', 'alarms', ({ deviceTypeId }) =>
      alarms.runner.forgetRules(deviceTypeId),
    );
  },
  routes: (services, deps) => alarmsRoutes(services, deps),
  jobs: ({ services, logger }) => {
    const { runner, notifier } = services.alarms;
    const stop = startPeriodicJobs(
      [
        {
          name: 'alarm-timers',
          intervalMs: TIMER_PASS_MS,
          run: () => runner.fireDue().then(() => undefined),
          atStart: true,
        },
        {
          name: 'alarm-notices',
          intervalMs: NOTICE_PASS_MS,
          run: () => notifier.deliverDue().then(() => undefined),
          atStart: true,
        },
      ],
      logger('alarms'),
      'alarm timers or notifications not run',
    );
    return async () => {
      await stop();
      await runner.settled();
    };
  },
});
