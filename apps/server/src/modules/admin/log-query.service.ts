import {
  csvFile,
  EXPORT_MAX_ROWS,
  type Lang,
  type LoginLogRow,
  type OpLogRow,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import { and, desc, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { countUpTo, type KeysetPosition, keysetBatches, olderThan, positionTime } from '../../db/keyset.ts';
import { containsText, paged } from '../../db/paging.ts';
import { AppError } from '../../http/app-error.ts';
import type { CsvExport } from '../../http/csv-reply.ts';
import { timeRange } from '../../http/time-range.ts';
import { cellsOf, exportFileName, headerOf, LOGIN_LOG_COLUMNS, OP_LOG_COLUMNS } from './log-export.ts';
import { loginLog, opLog } from './logs.schema.ts';

export interface LogSearch {
  startTime?: string | undefined;
  endTime?: string | undefined;
  userName?: string | undefined;
}
export interface OpLogSearch extends LogSearch {
  methodName?: string | undefined;
}

export interface LogQueryOptions {
  /** Most rows one export may hold (EXPORT_MAX_ROWS; smaller in tests). */
  exportMaxRows?: number;
  /** Rows read per query while an export streams. */
  exportBatchSize?: number;
}

function filters(
  time: PgColumn,
  range: { start: Date | null; end: Date | null },
  contains: Array<[PgColumn, string | undefined]>,
): SQL | undefined {
  return and(
    range.start ? gte(time, range.start) : undefined,
    range.end ? lte(time, range.end) : undefined,
    ...contains.map(([column, text]) => (text ? containsText(column, text) : undefined)),
  );
}

const opLogRow = (r: typeof opLog.$inferSelect): OpLogRow => ({
  id: r.id,
  ipAddr: r.ipAddr,
  methodArgs: r.methodArgs,
  methodDesc: r.methodDesc,
  methodName: r.methodName,
  methodType: r.methodType,
  operateTime: r.operateTime.toISOString(),
  url: r.url,
  userId: r.userId,
  userName: r.userName,
  resultCode: r.resultCode,
});

const loginLogRow = (r: typeof loginLog.$inferSelect): LoginLogRow => ({
  id: r.id,
  userId: r.userId,
  userName: r.userName,
  loginTime: r.loginTime.toISOString(),
  logoutTime: r.logoutTime?.toISOString() ?? null,
  ipAddr: r.ipAddr,
});

/** Where an export of a log stands (its ids are numbers). */
type Position = KeysetPosition<number>;

/** The operation log and the login log (spec §3): paged queries and CSV exports. */
export class LogQueryService {
  private readonly exportMaxRows: number;
  private readonly exportBatchSize: number;

  constructor(
    private readonly db: Db,
    options: LogQueryOptions = {},
  ) {
    this.exportMaxRows = options.exportMaxRows ?? EXPORT_MAX_ROWS;
    this.exportBatchSize = options.exportBatchSize ?? 1000;
  }

  private opLogWhere(search: OpLogSearch, range: { start: Date | null; end: Date | null }) {
    return filters(opLog.operateTime, range, [
      [opLog.userName, search.userName],
      [opLog.methodName, search.methodName],
    ]);
  }

  private loginLogWhere(search: LogSearch, range: { start: Date | null; end: Date | null }) {
    return filters(loginLog.loginTime, range, [[loginLog.userName, search.userName]]);
  }

  async queryOpLogPage(query: PageQuery & OpLogSearch, lang: Lang): Promise<Page<OpLogRow>> {
    const range = timeRange(query, { required: false, maxOneYear: false }, lang);
    const rows = this.db.select().from(opLog).where(this.opLogWhere(query, range)).$dynamic();
    const page = await paged(this.db, rows, { operateTime: opLog.operateTime }, query, {
      defaultSort: { by: 'operateTime', ascending: false },
      tieBreaker: opLog.id,
    });
    return { rows: page.rows.map(opLogRow), total: page.total };
  }

  async queryLoginLogPage(query: PageQuery & LogSearch, lang: Lang): Promise<Page<LoginLogRow>> {
    const range = timeRange(query, { required: false, maxOneYear: false }, lang);
    const rows = this.db.select().from(loginLog).where(this.loginLogWhere(query, range)).$dynamic();
    const page = await paged(this.db, rows, { loginTime: loginLog.loginTime }, query, {
      defaultSort: { by: 'loginTime', ascending: false },
      tieBreaker: loginLog.id,
    });
    return { rows: page.rows.map(loginLogRow), total: page.total };
  }

  /** Refuses (1060) when more rows match than one export may hold; counts no further than that. */
  private async ensureExportable(table: typeof opLog | typeof loginLog, where: SQL | undefined) {
    const matching = this.db
      .select({ one: sql`1`.as('one') })
      .from(table)
      .where(where)
      .$dynamic();
    if ((await countUpTo(this.db, matching, this.exportMaxRows + 1)) > this.exportMaxRows) {
      throw new AppError(ResultCode.ExportTooLarge);
    }
  }

  /** Rows newest first, batch by batch, never more than the export limit. */
  private batches<Row>(
    read: (after: Position | null, limit: number) => Promise<Array<{ row: Row; position: Position }>>,
  ): AsyncGenerator<Row[]> {
    return keysetBatches(read, { maxRows: this.exportMaxRows, batchSize: this.exportBatchSize });
  }

  async exportOpLog(search: OpLogSearch, lang: Lang): Promise<CsvExport> {
    const range = timeRange(search, { required: true, maxOneYear: true }, lang);
    const where = this.opLogWhere(search, range);
    await this.ensureExportable(opLog, where);
    const rows = this.batches(async (after, limit) => {
      const found = await this.db
        .select({ log: opLog, time: positionTime(opLog.operateTime) })
        .from(opLog)
        .where(and(where, olderThan(opLog.operateTime, opLog.id, after)))
        .orderBy(desc(opLog.operateTime), desc(opLog.id))
        .limit(limit);
      return found.map((f) => ({ row: opLogRow(f.log), position: { time: f.time, id: f.log.id } }));
    });
    return {
      fileName: exportFileName('oplog', range.start!, range.end!),
      content: csvFile(headerOf(OP_LOG_COLUMNS, lang), rows, cellsOf(OP_LOG_COLUMNS)),
    };
  }

  async exportLoginLog(search: LogSearch, lang: Lang): Promise<CsvExport> {
    const range = timeRange(search, { required: true, maxOneYear: true }, lang);
    const where = this.loginLogWhere(search, range);
    await this.ensureExportable(loginLog, where);
    const rows = this.batches(async (after, limit) => {
      const found = await this.db
        .select({ log: loginLog, time: positionTime(loginLog.loginTime) })
        .from(loginLog)
        .where(and(where, olderThan(loginLog.loginTime, loginLog.id, after)))
        .orderBy(desc(loginLog.loginTime), desc(loginLog.id))
        .limit(limit);
      return found.map((f) => ({ row: loginLogRow(f.log), position: { time: f.time, id: f.log.id } }));
    });
    return {
      fileName: exportFileName('loginlog', range.start!, range.end!),
      content: csvFile(headerOf(LOGIN_LOG_COLUMNS, lang), rows, cellsOf(LOGIN_LOG_COLUMNS)),
    };
  }
}
