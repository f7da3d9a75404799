import { api, type DeviceTypeNode, intervalForm } from '@uiot/contracts';
import { Alert, Descriptions, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage, type SearchField, useTreeLoad } from '../../lib/crud/index.ts';
import { call } from '../../lib/request/index.ts';
import { deviceTypeColumns } from './device-type-columns.tsx';
import { deviceTypeMatches } from './device-type-tree.ts';
import { IntervalFields } from './interval-view.tsx';

/**
 * Interval management (spec §2 /device/intervalManage): the reporting and heartbeat interval of every device
 * type, which the IoT pipeline uses to decide whether a lock is online; both are positive whole seconds.
 */
export function IntervalsPage() {
  const { t } = useTranslation('interval');
  const { t: tt } = useTranslation('deviceType');
  const load = useTreeLoad(api.deviceType.getTree, { text: 'keyword', matches: deviceTypeMatches });

  const columns = deviceTypeColumns(tt);

  const search: SearchField[] = [{ kind: 'text', name: 'keyword', label: tt('search'), maxLength: 64 }];

  return (
    <div data-testid="intervals-view">
      <Alert
        type="info"
        showIcon
        title={t('explain')}
        style={{ marginBottom: 12 }}
        data-testid="intervals-explain"
      />
      <CrudPage<DeviceTypeNode, typeof intervalForm>
        id="intervals"
        title={t('title')}
        rowKey="id"
        load={load}
        tree={{ defaultExpandAll: true }}
        columns={columns}
        search={search}
        actionsWidth={100}
        form={{
          schema: intervalForm,
          title: { create: t('dialog.edit'), edit: t('dialog.edit') },
          width: 560,
          toForm: ({ id, reportInterval, heartbeatInterval }) => ({ id, reportInterval, heartbeatInterval }),
          fields: ({ row, rule }) => (
            <>
              {row && (
                <Descriptions
                  size="small"
                  column={2}
                  style={{ marginBottom: 16 }}
                  items={[
                    { key: 'name', label: tt('column.name'), children: row.name },
                    { key: 'code', label: tt('column.code'), children: row.code },
                  ]}
                />
              )}
              <Row gutter={16}>
                <IntervalFields
                  rule={rule}
                  testId="interval"
                  col={{ span: 24 }}
                  hints={{ reportInterval: t('reportHint'), heartbeatInterval: t('heartbeatHint') }}
                />
              </Row>
            </>
          ),
        }}
        // The interval endpoint takes the type's id in the form's values, not the row's.
        resource={{
          update: {
            endpoint: api.deviceType.updateInterval,
            save: (body, _row, options) => call(api.deviceType.updateInterval, { body }, options),
          },
        }}
      />
    </div>
  );
}
