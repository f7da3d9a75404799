import type { DeviceRow } from '@uiot/contracts';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { CrudColumn } from '../../../lib/crud/index.ts';
import { deviceCategoryLabel } from '../device-type-tree.ts';
import {
  iotTypeLabel,
  lockStatusLabel,
  netTypeLabel,
  RUN_STATE_COLORS,
  registLabel,
  runStateLabel,
} from './ledger-options.ts';

type Column = CrudColumn<DeviceRow>;

/** The registration of a device as a tag (registered / unregistered). */
export function RegistTag({ regist, label }: { regist: boolean; label: string }) {
  return (
    <Tag
      color={regist ? 'green' : 'default'}
      data-testid={regist ? 'device-registered' : 'device-unregistered'}
    >
      {label}
    </Tag>
  );
}

/**
 * A column for every field of the ledger row (spec §3 Device), each sorted by the server by its key; the
 * usual ones shown, the others in the column settings. The fields of a feature flag that is off
 * (`switchedOff`, see hiddenFields) have no column: km, line, track and door without `ShowKmInfo`, the IoT fields without
 * `SupportIoT`, "no state" without `NoState`.
 */
export function ledgerColumns(t: TFunction<'ledger'>, switchedOff: ReadonlySet<string>): Column[] {
  const text = (key: keyof DeviceRow & string, width: number, more: Partial<Column> = {}): Column => ({
    key,
    title: t(`column.${key}`),
    width,
    sortable: true,
    ...more,
  });
  const hidden = (key: keyof DeviceRow & string, width: number, more: Partial<Column> = {}) =>
    text(key, width, { defaultHidden: true, ...more });
  /** Hidden columns of the same width and look, in this order. */
  const hiddenAlike = (
    keys: readonly (keyof DeviceRow & string)[],
    width: number,
    more: Partial<Column> = {},
  ) => keys.map((key) => hidden(key, width, more));

  const columns = [
    text('name', 180, { fixed: 'left' }),
    text('code', 130, { format: 'code' }),
    text('unitName', 160),
    text('typeName', 140),
    hidden('mainTypeName', 140),
    hidden('devTypeCode', 120, { format: 'code' }),
    text('category', 110, { value: (row) => deviceCategoryLabel(t, row.category) }),
    text('regist', 120, {
      value: (row) => registLabel(t, row.regist),
      render: (row) => <RegistTag regist={row.regist} label={registLabel(t, row.regist)} />,
    }),
    hidden('registTime', 165, { format: 'dateTime' }),
    text('status', 110, {
      value: (row) => runStateLabel(t, row.status),
      render: (row) => <Tag color={RUN_STATE_COLORS[row.status]}>{runStateLabel(t, row.status)}</Tag>,
    }),
    hidden('lockStatus', 100, { value: (row) => lockStatusLabel(t, row.lockStatus) }),
    text('imei', 160, { format: 'code' }),
    hidden('imsi', 150, { format: 'code' }),
    text('iotType', 120, { value: (row) => iotTypeLabel(t, row.iotType) }),
    hidden('netType', 110, { value: (row) => netTypeLabel(t, row.netType) }),
    ...hiddenAlike(['appKey', 'devEUI', 'appEUI'], 160, { format: 'code' }),
    ...hiddenAlike(['productId', 'platName'], 130),
    ...hiddenAlike(['sbbh', 'secondId'], 120),
    text('deptName', 140),
    text('staffName', 110),
    ...hiddenAlike(['lng', 'lat'], 120, { align: 'right' }),
    hidden('addr', 200),
    hidden('adCode', 100),
    ...hiddenAlike(['bayId', 'graphId'], 110),
    hidden('idxNo', 80, { align: 'right' }),
    ...hiddenAlike(['kmInfo', 'line', 'track', 'door'], 110),
    hidden('voltage', 90),
    ...hiddenAlike(['isDrawTool', 'noState', 'noWorking'], 100, { format: 'boolean' }),
    hidden('attachmentCount', 100, { align: 'right' }),
    hidden('camera', 120),
    hidden('preSet', 100),
    ...hiddenAlike(['extra1', 'extra2'], 150),
    text('desc', 200),
    hidden('stationId', 110),
    hidden('id', 200, { format: 'code' }),
    ...hiddenAlike(['createdAt', 'updatedAt'], 165, { format: 'dateTime' }),
  ];
  return columns.filter((column) => !switchedOff.has(column.key));
}
