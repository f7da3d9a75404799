import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import { defineModule } from '../../module.ts';
import { ClientService } from './client.service.ts';
import { FixedAuthorizationService } from './fixed-authorization.service.ts';
import { LockTaskService } from './lock-task.service.ts';
import { OperationService } from './operation.service.ts';
import './events.ts';
import { tasksRoutes } from './tasks.routes.ts';

/** How often approved tasks whose start or end time has come are moved (Execute, Finish). */
const TASK_TIME_PASS_MS = 15_000;

export type { OperationsRecorded, UncoveredOpening } from './events.ts';
export { FixedAuthorizationService } from './fixed-authorization.service.ts';
export { LockTaskService } from './lock-task.service.ts';
export { type LockTaskInput, type LockTaskSnapshot, next as nextLockTask } from './lock-task-machine.ts';
export { mayOpen, type OpenDecision, type OpenFacts, type OpenRequest } from './open-decision.ts';
export { OperationService, type PinOpening } from './operation.service.ts';

/** What the tasks module serves to the others. */
export interface TasksServices {
  /** Fixed authorisations: devices given to a staff member or a department. */
  authorizations: FixedAuthorizationService;
  /** Lock tasks: written, handed in, audited, executed and finished (docs/lock-tasks.md). */
  lockTasks: LockTaskService;
  /** The client and key API: client registration and review, task download, record upload. */
  clients: ClientService;
  /** Operation records, and remote opening and closing of IoT locks. */
  operations: OperationService;
}

/** Lock tasks, fixed authorisations and the one "who may open" decision (docs/lock-tasks.md). */
export const tasksModule = defineModule({
  name: 'tasks',
  needs: ['params', 'commands', 'auth', 'files'],
  build: ({ db, options, events }, { params, commands, auth, files }) => {
    const lockTasks = new LockTaskService(db, () => params.getBoolean('TaskNeedAudit'), options.now);
    const tasks: TasksServices = {
      authorizations: new FixedAuthorizationService(db, options.now),
      lockTasks,
      clients: new ClientService({
        db,
        auth,
        files,
        lockTasks,
        events,
        registrationRequired: () => params.getBoolean('MobileAppRegist'),
        preStore: () => params.getBoolean('PreStoreTask'),
        now: options.now,
      }),
      operations: new OperationService({
        db,
        commands,
        files,
        events,
        logger: options.commandLog ?? SILENT_LOGGER,
        now: options.now,
        exportMaxRows: options.exportMaxRows,
      }),
    };
    return { tasks };
  },
  subscribe: (events, { tasks }) => {
    // A remote operation's record follows its command (answered, failed, expired).
    events.subscribe('command.changed', 'operation records', (updates) =>
      tasks.operations.commandsChanged(updates),
    );
    // Openings the locks reported become records; one nothing covered raises an alarm.
    events.subscribe('report.stored', 'operation records', (commit) => {
      const reports = commit.reported.flatMap((r) =>
        r.unlocks ? [{ deviceId: r.deviceId, unlocks: r.unlocks }] : [],
      );
      if (reports.length > 0) return tasks.operations.openingsReported(reports);
    });
  },
  routes: (services) => tasksRoutes(services),
  jobs: ({ services, logger }) =>
    startPeriodicJobs(
      [
        {
          name: 'lock-task-times',
          intervalMs: TASK_TIME_PASS_MS,
          run: () => services.tasks.lockTasks.tick().then(() => undefined),
          atStart: true,
        },
      ],
      logger('tasks'),
      'lock tasks not moved on their start or end time',
    ),
});
