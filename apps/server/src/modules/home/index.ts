export { homeRoutes } from './home.routes.ts';
