import { api, type OpLogRow, ResultCode, translateResult } from '@uiot/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, TIME_RANGE_FIELD } from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/index.ts';
import { useOperationTitle } from '../../lib/operation/operation-title.ts';
import { useLogSearchFields } from './log-search.ts';

/**
 * Operation log (spec §2 /sys/oplog, §3 Operation log): every mutating call, newest first. The operation
 * reads in the console's language; the server's CSV export needs a time range of at most a year.
 */
export function OpLogPage() {
  const { t } = useTranslation('logs');
  const search = useLogSearchFields({ withMethod: true });
  const lang = useLang();
  const operationTitle = useOperationTitle();

  // A row is written before its call runs; one without a result was not completed (still running, or the
  // server stopped before it could record the result).
  const resultText = (code: number | null) => {
    if (code === null) return t('result.unknown');
    return code === ResultCode.Ok ? t('result.success') : t('result.failure', { code });
  };

  const columns: CrudColumn<OpLogRow>[] = [
    {
      key: 'operateTime',
      title: t('opLog.column.operateTime'),
      width: 165,
      format: 'dateTime',
      sortable: true,
      fixed: 'left',
    },
    { key: 'userName', title: t('column.userName'), width: 110 },
    { key: 'userId', title: t('column.userId'), width: 120, defaultHidden: true },
    { key: 'operation', title: t('opLog.column.operation'), width: 150, value: (row) => operationTitle(row) },
    { key: 'methodName', title: t('opLog.column.methodName'), width: 190, format: 'code' },
    { key: 'methodType', title: t('opLog.column.methodType'), width: 90, align: 'center' },
    { key: 'url', title: t('opLog.column.url'), width: 170, format: 'code' },
    { key: 'ipAddr', title: t('column.ipAddr'), width: 120 },
    { key: 'methodArgs', title: t('opLog.column.methodArgs'), width: 200, format: 'code' },
    {
      key: 'resultCode',
      title: t('opLog.column.result'),
      width: 110,
      fixed: 'right',
      value: (row) => resultText(row.resultCode),
      render: (row) => {
        if (row.resultCode === null) {
          return (
            <Tooltip title={t('result.unknownHint')}>
              <Tag>{resultText(null)}</Tag>
            </Tooltip>
          );
        }
        const tag = (
          <Tag color={row.resultCode === ResultCode.Ok ? 'success' : 'error'}>
            {resultText(row.resultCode)}
          </Tag>
        );
        const meaning = row.resultCode === ResultCode.Ok ? undefined : translateResult(row.resultCode, lang);
        return meaning ? <Tooltip title={meaning}>{tag}</Tooltip> : tag;
      },
    },
  ];

  return (
    <CrudPage<OpLogRow>
      id="oplog"
      title={t('opLog.title')}
      rowKey="id"
      query={api.logs.queryOpLogPage}
      columns={columns}
      search={search}
      exports={{
        endpoint: api.logs.exportOpLog,
        range: TIME_RANGE_FIELD,
      }}
    />
  );
}
