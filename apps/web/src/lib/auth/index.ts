export * from './account-dialogs.ts';
export * from './login-path.ts';
export * from './session.ts';
export * from './session-expiry.ts';
