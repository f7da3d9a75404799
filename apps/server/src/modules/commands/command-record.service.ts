import type { CommandState, DeviceCommandRow, Lang, Page, PageQuery } from '@uiot/contracts';
import { and, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { timeRange } from '../../http/time-range.ts';
import { device } from '../devices/devices.schema.ts';
import { maskedParams } from './command-secrets.ts';
import { type DeviceCommandRecord, deviceCommand } from './commands.schema.ts';

export interface DeviceCommandSearch {
  deviceId?: string | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  deviceName?: string | undefined;
  state?: CommandState | undefined;
}

const columns = {
  command: deviceCommand,
  deviceName: device.name,
  deviceCode: device.code,
};

type Selected = {
  command: typeof deviceCommand.$inferSelect;
  deviceName: string | null;
  deviceCode: string | null;
};

/** The parameters of a command as the records show them (JSON text, '' when none), secrets masked. */
function shownParams(cmdCode: string, params: DeviceCommandRecord['params']): string {
  if (!params || Object.keys(params).length === 0) return '';
  return JSON.stringify(maskedParams(cmdCode, params) ?? params);
}

/** A command as the remote control records show it, with the name and code of its device. */
export function toCommandRow({ command: c, deviceName, deviceCode }: Selected): DeviceCommandRow {
  return {
    id: c.id,
    deviceId: c.deviceId,
    deviceName,
    deviceCode,
    cmdCode: c.cmdCode,
    name: c.name,
    params: shownParams(c.cmdCode, c.params),
    state: c.state as CommandState,
    sendFlag: c.sendFlag,
    sendTime: c.sendTime?.toISOString() ?? null,
    attempts: c.attempts,
    maxRetransmit: c.maxRetransmit,
    expireTime: c.expireTime.toISOString(),
    transport: (c.transport as DeviceCommandRow['transport']) ?? null,
    receiveId: c.receiveId,
    platformDeviceId: c.platformDeviceId,
    detail: c.detail,
    failure: c.failureCode === null ? null : { code: c.failureCode, params: c.failureParams ?? {} },
    staffName: c.staffName,
    createTime: c.createdAt.toISOString(),
    finishTime: c.finishedAt?.toISOString() ?? null,
  };
}

/** Remote control records (spec §2 /data-statistics/device-command): every command sent, newest first. */
export class CommandRecordService {
  constructor(private readonly db: Db) {}

  async query(search: DeviceCommandSearch & PageQuery, lang: Lang): Promise<Page<DeviceCommandRow>> {
    const range = timeRange(search, { required: false, maxOneYear: false }, lang);
    const filter: SQL | undefined = and(
      search.deviceId ? eq(deviceCommand.deviceId, search.deviceId) : undefined,
      range.start ? gte(deviceCommand.createdAt, range.start) : undefined,
      range.end ? lte(deviceCommand.createdAt, range.end) : undefined,
      search.deviceName ? containsText(device.name, search.deviceName) : undefined,
      search.state ? eq(deviceCommand.state, search.state) : undefined,
    );
    const rows = this.db
      .select(columns)
      .from(deviceCommand)
      .leftJoin(device, eq(device.id, deviceCommand.deviceId))
      .where(filter)
      .$dynamic();
    const page = await paged(
      this.db,
      rows,
      { createTime: deviceCommand.createdAt, state: deviceCommand.state },
      search,
      { defaultSort: { by: 'createTime', ascending: false }, tieBreaker: deviceCommand.id },
    );
    return { rows: page.rows.map(toCommandRow), total: page.total };
  }
}
