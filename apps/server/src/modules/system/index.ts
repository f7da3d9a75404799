export { systemRoutes } from './system.routes.ts';
