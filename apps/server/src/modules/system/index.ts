import { defineModule } from '../../module.ts';
import { systemRoutes } from './system.routes.ts';

export { systemRoutes } from './system.routes.ts';

/** Health and version. */
export const systemModule = defineModule({
  name: 'system',
  routes: (services, { database, busConnected }) => systemRoutes(services, { database, busConnected }),
});
