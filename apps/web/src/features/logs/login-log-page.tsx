import { api, type LoginLogRow } from '@uiot/contracts';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, TIME_RANGE_FIELD } from '../../lib/crud/index.ts';
import { useLogSearchFields } from './log-search.ts';

/**
 * Login log (spec §2 /sys/login-log, §3 Login log): sign-ins and sign-outs, newest first; the server's CSV
 * export needs a time range of at most a year.
 */
export function LoginLogPage() {
  const { t } = useTranslation('logs');
  const search = useLogSearchFields({ withMethod: false });

  const columns: CrudColumn<LoginLogRow>[] = [
    { key: 'userName', title: t('column.userName'), width: 160 },
    { key: 'userId', title: t('column.userId'), width: 160, defaultHidden: true },
    {
      key: 'loginTime',
      title: t('loginLog.column.loginTime'),
      width: 180,
      format: 'dateTime',
      sortable: true,
    },
    { key: 'logoutTime', title: t('loginLog.column.logoutTime'), width: 180, format: 'dateTime' },
    { key: 'ipAddr', title: t('column.ipAddr'), width: 200 },
  ];

  return (
    <CrudPage<LoginLogRow>
      id="loginlog"
      title={t('loginLog.title')}
      rowKey="id"
      query={api.logs.queryLoginLogPage}
      columns={columns}
      search={search}
      exports={{
        endpoint: api.logs.exportLoginLog,
        range: TIME_RANGE_FIELD,
      }}
    />
  );
}
