export { registrationRoutes } from './registration.routes.ts';
export { RegistrationService } from './registration.service.ts';
