import { defineModule } from '../../module.ts';
import { registrationRoutes } from './registration.routes.ts';
import { RegistrationService } from './registration.service.ts';

export { registrationRoutes } from './registration.routes.ts';
export { RegistrationService } from './registration.service.ts';

/** Self-registration of staff. */
export const registrationModule = defineModule({
  name: 'registration',
  needs: ['params', 'mail'],
  build: ({ db, options }, { params, mail }) => ({
    registration: new RegistrationService(db, params, mail, options.now),
  }),
  routes: (services) => registrationRoutes(services),
});
