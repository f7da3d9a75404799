export * from '../modules/admin/logs.schema.ts';
export * from '../modules/auth/auth.schema.ts';
export * from '../modules/commands/commands.schema.ts';
export * from '../modules/devices/devices.schema.ts';
export * from '../modules/iot/iot.schema.ts';
export * from '../modules/org/org.schema.ts';
export * from '../modules/params/params.schema.ts';
export * from '../modules/registration/registration.schema.ts';
