import { api, type LockTaskRow, lockTaskReasonForm } from '@uiot/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { SchemaField, SchemaForm } from '../../lib/crud/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { call } from '../../lib/request/index.ts';

/** A rejection (back to the creator) or an early end: both need a reason (docs/lock-tasks.md). */
export type LockTaskReasonKind = 'reject' | 'forceEnd';

const reasonOnly = lockTaskReasonForm.pick({ reason: true });

interface ReasonValues {
  reason: string;
}

/** Asks the reason of a rejection or an early end, then sends `{ id, reason }`. */
export function LockTaskReasonDialog({
  task,
  kind,
  open,
  onClose,
  onDone,
}: {
  task: LockTaskRow;
  kind: LockTaskReasonKind;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('tasks');
  const [form] = Form.useForm<ReasonValues>();
  const outcome = kind === 'reject' ? 'audit' : 'forceEnd';

  const send = async ({ reason }: ReasonValues) => {
    try {
      await call(
        kind === 'reject' ? api.lockTask.reject : api.lockTask.forceEnd,
        { body: { id: task.id, reason } },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed(outcome, error, { withIssues: true });
      throw error;
    }
    toastSucceeded(outcome);
    onDone();
  };

  return (
    <FormDialog<ReasonValues>
      open={open}
      title={t(kind === 'reject' ? 'lockTask.reason.rejectTitle' : 'lockTask.reason.forceEndTitle', {
        name: task.name,
      })}
      form={form}
      onSubmit={send}
      onClose={onClose}
      okText={t(`lockTask.action.${kind}`)}
      width={520}
      confirmUnsaved
      testId="lockTasks-reason-dialog"
    >
      <SchemaForm schema={reasonOnly} label={() => t('lockTask.reason.label')} testId="lockTask-reason">
        <SchemaField name="reason" />
      </SchemaForm>
    </FormDialog>
  );
}
