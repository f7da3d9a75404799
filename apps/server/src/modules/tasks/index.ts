import { defineModule } from '../../module.ts';
import { FixedAuthorizationService } from './fixed-authorization.service.ts';
import { tasksRoutes } from './tasks.routes.ts';

export { FixedAuthorizationService } from './fixed-authorization.service.ts';
export { type LockTaskInput, type LockTaskSnapshot, next as nextLockTask } from './lock-task-machine.ts';
export { mayOpen, type OpenDecision, type OpenFacts, type OpenRequest } from './open-decision.ts';

/** What the tasks module serves to the others. */
export interface TasksServices {
  /** Fixed authorisations: devices given to a staff member or a department. */
  authorizations: FixedAuthorizationService;
}

/** Lock tasks, fixed authorisations and the one "who may open" decision (docs/lock-tasks.md). */
export const tasksModule = defineModule({
  name: 'tasks',
  build: ({ db, options }) => {
    const tasks: TasksServices = {
      authorizations: new FixedAuthorizationService(db, options.now),
    };
    return { tasks };
  },
  routes: (services) => tasksRoutes(services),
});
