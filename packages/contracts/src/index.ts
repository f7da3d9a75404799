import './validation/zod-messages.ts';

export * from './api.ts';
export * from './codes.ts';
export * from './endpoint.ts';
export * from './endpoints/home.ts';
export * from './endpoints/logs.ts';
export * from './endpoints/org.ts';
export * from './endpoints/params.ts';
export * from './endpoints/registration.ts';
export * from './endpoints/staff.ts';
export * from './endpoints/staff-session.ts';
export * from './endpoints/system.ts';
export * from './envelope.ts';
export * from './lang.ts';
export * from './menus.ts';
export * from './paging.ts';
export * from './permissions.ts';
export * from './runtime-config.ts';
export * from './validation/formats.ts';
export * from './validation/messages.ts';
export * from './validation/org-forms.ts';
export * from './validation/password.ts';
export * from './validation/password-policy.ts';

export const BUILD_VERSION = '1.10.00';
export const API_PREFIX = '/api';
export const TOKEN_STORAGE_KEY = '__uiot-web-token__';
