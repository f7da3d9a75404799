import {
  api,
  OPEN_REFUSAL_CODES,
  type OperationAction,
  type OperationRecordRow,
  ResultCode,
  translateResult,
} from '@uiot/contracts';
import { App, Button } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RowAction } from '../../lib/crud/index.ts';
import { toastError } from '../../lib/feedback/feedback.ts';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { currentLang } from '../../lib/i18n/i18n.ts';
import { Can } from '../../lib/permission/permission.tsx';
import { call, isRequestError } from '../../lib/request/index.ts';

/**
 * Remote opening and closing of an IoT lock (spec §3 Operation record): a confirmation naming the lock, the
 * call, then "command sent" (the record follows live) or the reason the server refused. Who may open is the
 * server's decision (a task or authorisation in force); the console only offers the buttons to holders of
 * the endpoint's key.
 */

export const REMOTE_ENDPOINTS = {
  open: api.operationRecord.remoteOpen,
  close: api.operationRecord.remoteClose,
} as const;

/** Refusals of the opening decision and "not a registered IoT lock": their message is the whole answer. */
const REFUSAL_CODES: ReadonlySet<number> = new Set([
  ...Object.values(OPEN_REFUSAL_CODES),
  ResultCode.DeviceNotIot,
]);

/** The lock a remote operation is about: its id, and its name for the question. */
export interface RemoteDevice {
  id: string;
  name: string;
}

/** Sends the operation; answers the new record, or null after showing why it was not sent. */
export async function operateRemotely(
  action: OperationAction,
  deviceId: string,
): Promise<OperationRecordRow | null> {
  try {
    const record = await call(
      REMOTE_ENDPOINTS[action],
      { body: { deviceId } },
      { silent: true, canCancel: false },
    );
    toastSucceeded('sendCommand');
    return record;
  } catch (error) {
    if (isRequestError(error) && error.kind === 'business' && REFUSAL_CODES.has(error.code ?? 0)) {
      toastError(translateResult(error.code ?? 0, currentLang()) ?? error.serverMessage ?? '');
    } else {
      toastFailed('sendCommand', error);
    }
    return null;
  }
}

/** The question asked before a remote operation. */
export function remoteQuestion(t: TFunction, action: OperationAction, device: RemoteDevice): string {
  return t(`tasks:operation.remote.confirm.${action}`, { name: device.name });
}

/**
 * Remote open and close as row actions of a CRUD kit table, offered on the rows `device` names a lock for
 * (null: not a registered IoT lock the user may operate); the kit confirms first (`<id>-confirm-ok`).
 */
export function remoteRowActions<Row>(
  t: TFunction,
  device: (row: Row) => RemoteDevice | null,
  options: { more?: boolean } = {},
): RowAction<Row>[] {
  return (['open', 'close'] as const).map((action) => ({
    key: action === 'open' ? 'remoteOpen' : 'remoteClose',
    label: t(`tasks:operation.remote.${action}`),
    endpoint: REMOTE_ENDPOINTS[action],
    ...(options.more ? { more: true } : {}),
    when: (row: Row) => device(row) !== null,
    confirm: (row: Row) => remoteQuestion(t, action, device(row) as RemoteDevice),
    run: (row: Row) => operateRemotely(action, (device(row) as RemoteDevice).id),
  }));
}

/**
 * Remote operation buttons outside a table (a device's monitor details, a lock task's items), each for
 * holders of its endpoint's key. Test ids `<testId>-remoteOpen` / `-remoteClose`, `<testId>-confirm-ok`.
 */
export function RemoteOperationButtons({
  device,
  actions = ['open', 'close'],
  testId,
  size = 'middle',
  link = false,
}: {
  device: RemoteDevice;
  actions?: readonly OperationAction[];
  testId: string;
  size?: 'small' | 'middle';
  /** Link buttons, for a table cell. */
  link?: boolean;
}) {
  const { t } = useTranslation('tasks');
  const { modal } = App.useApp();
  const ask = (action: OperationAction) =>
    void modal.confirm({
      title: t('crud:confirm.title'),
      content: remoteQuestion(t, action, device),
      okText: t('crud:confirm.ok'),
      cancelText: t('crud:confirm.cancel'),
      okButtonProps: { 'data-testid': `${testId}-confirm-ok` } as never,
      onOk: () => operateRemotely(action, device.id),
    });
  return actions.map((action) => {
    const key = action === 'open' ? 'remoteOpen' : 'remoteClose';
    return (
      <Can key={action} endpoint={REMOTE_ENDPOINTS[action]}>
        <Button
          size={size}
          type={link ? 'link' : 'default'}
          onClick={() => ask(action)}
          data-testid={`${testId}-${key}`}
        >
          {t(`operation.remote.${action}`)}
        </Button>
      </Can>
    );
  });
}
