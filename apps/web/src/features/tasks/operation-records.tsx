import {
  api,
  type Lang,
  OPEN_REFUSAL_CODES,
  OPERATION_ACTIONS,
  OPERATION_RESULTS,
  OPERATION_SOURCES,
  type OperationRecordRow,
  type OperationResult,
  translateResult,
} from '@uiot/contracts';
import { Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  type CrudExport,
  CrudPage,
  type SearchField,
  TIME_RANGE_FIELD,
  timeRangeSearchField,
  useLivePages,
} from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { mergeOperationPage } from './operation-live.ts';
import { OperationPhoto } from './operation-photo.tsx';
import './tasks.css';

const RESULT_COLOURS: Record<OperationResult, string> = {
  refused: 'red',
  sent: 'processing',
  succeeded: 'success',
  failed: 'error',
  reported: 'default',
};

/** How a record ended, in words: a refusal's reason (the message of its result code), or the result. */
export function operationResultText(t: TFunction, row: OperationRecordRow, lang: Lang): string {
  const reason = row.refusal && translateResult(OPEN_REFUSAL_CODES[row.refusal], lang);
  return reason || t(`tasks:operation.result.${row.result}`);
}

/** The result as a coloured tag (`data-result` for browser tests), a refusal followed by its reason. */
export function ResultCell({ row }: { row: OperationRecordRow }) {
  const { t } = useTranslation('tasks');
  const lang = useLang();
  const tag = (
    <Tag color={RESULT_COLOURS[row.result]} data-testid="operation-result" data-result={row.result}>
      {t(`operation.result.${row.result}`)}
    </Tag>
  );
  if (!row.refusal) return tag;
  return (
    <span className="uiot-tasks__result">
      {tag}
      <Typography.Text
        type="danger"
        ellipsis={{ tooltip: operationResultText(t, row, lang) }}
        data-testid="operation-refusal"
      >
        {operationResultText(t, row, lang)}
      </Typography.Text>
    </span>
  );
}

/** The device's name with its code under it, both cut with a tooltip. */
export function DeviceCell({ row }: { row: OperationRecordRow }) {
  return (
    <Space orientation="vertical" size={0} className="uiot-tasks__device" data-testid="operation-device">
      <EllipsisText text={row.deviceName} />
      {row.deviceCode && (
        <Typography.Text type="secondary" ellipsis={{ tooltip: row.deviceCode }} className="uiot-tasks__code">
          {row.deviceCode}
        </Typography.Text>
      )}
    </Space>
  );
}

export interface OperationRecordsProps {
  /** Test-id prefix of the kit (`<id>-table`, `<id>-export`, ...). */
  id: string;
  title: string;
  /** One device's records (the monitor's operation-record tab): no device column nor device search. */
  deviceId?: string;
  /** The export buttons (the records pages). */
  exportable?: boolean;
}

/**
 * Operation records (spec §3 Operation record), newest first, paged: when, which lock, what was done, by whom
 * and how, how it ended (a refusal with its reason), under which task, key and lock code, and from where.
 * New records and records that move on (a remote opening answered by the lock) show as they are published.
 */
export function OperationRecords({ id, title, deviceId, exportable = false }: OperationRecordsProps) {
  const { t } = useTranslation('tasks');
  const lang = useLang();
  const oneDevice = deviceId !== undefined;
  useLivePages('operation', api.operationRecord.queryPage.path, mergeOperationPage);

  const search = useMemo<SearchField[]>(() => {
    const choices = <V extends string>(name: string, values: readonly V[]): SearchField => ({
      kind: 'select',
      name,
      label: t(`operation.search.${name}`),
      options: values.map((value) => ({ value, label: t(`operation.${name}.${value}`) })),
    });
    return [
      timeRangeSearchField(t('operation.search.range')),
      {
        kind: 'text',
        name: 'keyword',
        label: t('operation.search.keyword'),
        placeholder: t('operation.search.keywordHint'),
        maxLength: 64,
      },
      choices('action', OPERATION_ACTIONS),
      choices('result', OPERATION_RESULTS),
      choices('source', OPERATION_SOURCES),
    ];
  }, [t]);

  const columns = useMemo<CrudColumn<OperationRecordRow>[]>(() => {
    const device: CrudColumn<OperationRecordRow>[] = oneDevice
      ? []
      : [
          {
            key: 'deviceName',
            title: t('operation.column.deviceName'),
            width: 200,
            sortable: true,
            value: (row) => (row.deviceCode ? `${row.deviceName} (${row.deviceCode})` : row.deviceName),
            render: (row) => <DeviceCell row={row} />,
          },
        ];
    return [
      {
        key: 'operateTime',
        title: t('operation.column.operateTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      ...device,
      {
        key: 'action',
        title: t('operation.column.action'),
        width: 90,
        value: (row) => t(`operation.action.${row.action}`),
      },
      { key: 'staffName', title: t('operation.column.staffName'), width: 120, sortable: true },
      {
        key: 'opMethod',
        title: t('operation.column.opMethod'),
        width: 100,
        value: (row) => (row.opMethod ? t(`operation.method.${row.opMethod}`) : null),
      },
      {
        key: 'result',
        title: t('operation.column.result'),
        width: 340,
        sortable: true,
        value: (row) => operationResultText(t, row, lang),
        render: (row) => <ResultCell row={row} />,
      },
      { key: 'taskName', title: t('operation.column.taskName'), width: 160 },
      { key: 'keyName', title: t('operation.column.keyName'), width: 110 },
      { key: 'lockCode', title: t('operation.column.lockCode'), width: 110, format: 'code' },
      {
        key: 'source',
        title: t('operation.column.source'),
        width: 120,
        value: (row) => t(`operation.source.${row.source}`),
      },
      {
        key: 'covered',
        title: t('operation.column.covered'),
        width: 120,
        defaultHidden: true,
        value: (row) => (row.covered === null ? null : t(`operation.covered.${row.covered ? 'yes' : 'no'}`)),
      },
      { key: 'uploadTime', title: t('operation.column.uploadTime'), width: 165, format: 'dateTime' },
      {
        key: 'photo',
        title: t('operation.column.photo'),
        width: 100,
        noExport: true,
        value: (row) => (row.photoFileId ? t('operation.photo') : null),
        render: (row) => (row.photoFileId ? <OperationPhoto recordId={row.id} /> : null),
      },
    ];
  }, [t, lang, oneDevice]);

  const exports = useMemo<CrudExport | undefined>(
    () => (exportable ? { endpoint: api.operationRecord.export, range: TIME_RANGE_FIELD } : undefined),
    [exportable],
  );

  return (
    <CrudPage<OperationRecordRow>
      id={id}
      title={title}
      rowKey="id"
      query={api.operationRecord.queryPage}
      fixedQuery={oneDevice ? { deviceId } : undefined}
      columns={columns}
      search={search}
      exports={exports}
    />
  );
}
