import { api, type DeviceTypeNode, intervalForm, Permission } from '@uiot/contracts';
import { Alert, Col, Descriptions, Form, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, filterTree, type SearchField } from '../../lib/crud/index.ts';
import { call } from '../../lib/request/index.ts';
import { deviceCategoryLabel, deviceTypeMatches, useShareDeviceTypeTree } from './device-type-tree.ts';
import { IntervalInput, IntervalText } from './interval-view.tsx';

/**
 * Interval management (spec §2 /device/intervalManage): the reporting and heartbeat interval of every device
 * type, which the IoT pipeline uses to decide whether a lock is online; both are positive whole seconds.
 */
export function IntervalsPage() {
  const { t } = useTranslation('interval');
  const { t: tt } = useTranslation('deviceType');
  const share = useShareDeviceTypeTree();

  const columns: CrudColumn<DeviceTypeNode>[] = [
    { key: 'name', title: tt('column.name'), width: 220, fixed: 'left' },
    { key: 'code', title: tt('column.code'), width: 140, format: 'code' },
    {
      key: 'category',
      title: tt('column.category'),
      width: 130,
      value: (row) => deviceCategoryLabel(tt, row.category),
    },
    {
      key: 'reportInterval',
      title: tt('column.reportInterval'),
      width: 200,
      render: (row) => <IntervalText seconds={row.reportInterval} />,
    },
    {
      key: 'heartbeatInterval',
      title: tt('column.heartbeatInterval'),
      width: 200,
      render: (row) => <IntervalText seconds={row.heartbeatInterval} />,
    },
    { key: 'deviceCount', title: tt('column.deviceCount'), width: 100, align: 'right' },
  ];

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
        load={async (query, options) => {
          const tree = await call(api.deviceType.getTree, undefined, options);
          share(tree);
          const text = typeof query.keyword === 'string' ? query.keyword : '';
          return text ? filterTree(tree, (node) => deviceTypeMatches(node, text)) : tree;
        }}
        tree={{ defaultExpandAll: true }}
        columns={columns}
        search={search}
        exports={{ permission: Permission.IntervalRead }}
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
                <Col span={24}>
                  <Form.Item
                    name="reportInterval"
                    label={tt('column.reportInterval')}
                    rules={[rule('reportInterval')]}
                    extra={t('reportHint')}
                    required
                  >
                    <IntervalInput testId="interval-reportInterval" />
                  </Form.Item>
                </Col>
                <Col span={24}>
                  <Form.Item
                    name="heartbeatInterval"
                    label={tt('column.heartbeatInterval')}
                    rules={[rule('heartbeatInterval')]}
                    extra={t('heartbeatHint')}
                    required
                  >
                    <IntervalInput testId="interval-heartbeatInterval" />
                  </Form.Item>
                </Col>
              </Row>
            </>
          ),
          update: {
            permission: Permission.IntervalUpdate,
            save: (body, _row, options) => call(api.deviceType.updateInterval, { body }, options),
          },
        }}
      />
    </div>
  );
}
