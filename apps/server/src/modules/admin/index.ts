export {
  cellsOf,
  type ExportColumn,
  exportFileName,
  exportTime,
  headerOf,
  timeHeader,
} from './log-export.ts';
export { LogQueryService } from './log-query.service.ts';
export { logsRoutes } from './logs.routes.ts';
export { callInput, describeArgs, OpLogService } from './op-log.service.ts';
