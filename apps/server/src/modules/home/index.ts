import { defineModule } from '../../module.ts';
import { homeRoutes } from './home.routes.ts';

export { homeRoutes } from './home.routes.ts';

/** The home page's figures. */
export const homeModule = defineModule({ name: 'home', routes: (services) => homeRoutes(services) });
