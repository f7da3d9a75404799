export { ParamService } from './param.service.ts';
export { paramRoutes } from './params.routes.ts';
