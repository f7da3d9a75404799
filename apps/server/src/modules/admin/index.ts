import { defineModule } from '../../module.ts';
import { LogQueryService } from './log-query.service.ts';
import { logsRoutes } from './logs.routes.ts';
import { OpLogService } from './op-log.service.ts';

export {
  cellsOf,
  EXPORT_UTC_OFFSET_HOURS,
  type ExportColumn,
  exportFileName,
  exportTime,
  headerOf,
  timeHeader,
} from './log-export.ts';
export { LogQueryService } from './log-query.service.ts';
export { logsRoutes } from './logs.routes.ts';
export { callInput, describeArgs, OpLogService } from './op-log.service.ts';

/** The operation log and the log queries. */
export const adminModule = defineModule({
  name: 'admin',
  build: ({ db, options }) => ({
    opLog: new OpLogService(db),
    logs: new LogQueryService(db, { exportMaxRows: options.exportMaxRows }),
  }),
  routes: (services) => logsRoutes(services),
});
