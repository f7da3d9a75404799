export * from './api-client.ts';
export * from './failure-notice.ts';
export type { PendingSnapshot, RequestOptions } from './request-client.ts';
export * from './request-error.ts';
