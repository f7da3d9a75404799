import type { DeviceAlarmRow, Lang, Page, PageQuery } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { timeRange } from '../../http/time-range.ts';
import { type AlarmSearch, openAlarmCount, queryAlarms } from './alarm.repository.ts';
import type { AlarmRunner } from './alarm-runner.ts';

export type AlarmQuery = Omit<AlarmSearch, 'from' | 'to'> & { startTime?: string; endTime?: string };

/** Device alarms (spec §3, /data-statistics/warning-message): the records, and staff resetting them. */
export class AlarmService {
  constructor(
    private readonly db: Db,
    private readonly runner: AlarmRunner,
  ) {}

  query(search: AlarmQuery, page: PageQuery, lang: Lang): Promise<Page<DeviceAlarmRow>> {
    const range = timeRange(search, { required: false, maxOneYear: false }, lang);
    const { startTime: _start, endTime: _end, ...rest } = search;
    return queryAlarms(
      this.db,
      { ...rest, from: range.start ?? undefined, to: range.end ?? undefined },
      page,
    );
  }

  async openCount(): Promise<{ open: number }> {
    return { open: await openAlarmCount(this.db) };
  }

  reset(id: string, user: SessionUser): Promise<void> {
    return this.runner.reset(id, { staffId: user.staffId, staffName: user.staffName });
  }

  acknowledge(id: string, user: SessionUser): Promise<void> {
    return this.runner.acknowledge(id, { staffId: user.staffId, staffName: user.staffName });
  }
}
