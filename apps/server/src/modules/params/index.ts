import { defineModule } from '../../module.ts';
import { ParamService } from './param.service.ts';
import { paramRoutes } from './params.routes.ts';

export { ParamService } from './param.service.ts';
export { paramRoutes } from './params.routes.ts';

/** Parameters and feature flags. */
export const paramsModule = defineModule({
  name: 'params',
  build: ({ db }) => ({ params: new ParamService(db) }),
  routes: (services) => paramRoutes(services),
});
