import type { DeviceRow } from '@uiot/contracts';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { CrudColumn } from '../../../lib/crud/index.ts';
import { deviceCategoryLabel } from '../device-type-tree.ts';
import { KM_FIELDS } from './device-form.ts';
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
 * usual ones shown, the others in the column settings. Km, line, track and door only with `ShowKmInfo`.
 */
export function ledgerColumns(t: TFunction<'ledger'>, showKm: boolean): Column[] {
  const text = (key: keyof DeviceRow & string, width: number, more: Partial<Column> = {}): Column => ({
    key,
    title: t(`column.${key}`),
    width,
    sortable: true,
    ...more,
  });
  const hidden = (key: keyof DeviceRow & string, width: number, more: Partial<Column> = {}) =>
    text(key, width, { defaultHidden: true, ...more });

  return [
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
    hidden('appKey', 160, { format: 'code' }),
    hidden('devEUI', 160, { format: 'code' }),
    hidden('appEUI', 160, { format: 'code' }),
    hidden('productId', 130),
    hidden('platName', 130),
    hidden('sbbh', 120),
    hidden('secondId', 120),
    text('deptName', 140),
    text('staffName', 110),
    hidden('lng', 120, { align: 'right' }),
    hidden('lat', 120, { align: 'right' }),
    hidden('addr', 200),
    hidden('adCode', 100),
    hidden('bayId', 110),
    hidden('graphId', 110),
    hidden('idxNo', 80, { align: 'right' }),
    ...(showKm ? KM_FIELDS.map((key) => hidden(key, 110)) : []),
    hidden('voltage', 90),
    hidden('isDrawTool', 100, { format: 'boolean' }),
    hidden('noState', 100, { format: 'boolean' }),
    hidden('noWorking', 100, { format: 'boolean' }),
    hidden('attachmentCount', 100, { align: 'right' }),
    hidden('camera', 120),
    hidden('preSet', 100),
    hidden('extra1', 150),
    hidden('extra2', 150),
    text('desc', 200),
    hidden('stationId', 110),
    hidden('id', 200, { format: 'code' }),
    hidden('createdAt', 165, { format: 'dateTime' }),
    hidden('updatedAt', 165, { format: 'dateTime' }),
  ];
}
