export * from './api-client.ts';
export * from './failure-notice.ts';
export type { DownloadResult, PendingSnapshot, QueryValue, RequestOptions } from './request-client.ts';
export { fileNameOfDisposition } from './request-client.ts';
export * from './request-error.ts';
