import { api, type SysMessageRow } from '@uiot/contracts';
import { App, Descriptions, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { call } from '../../lib/request/index.ts';

export type ReviewDecision = 'approve' | 'reject';

/** Most characters of a review remark (the contracts' `reviewRegistration`). */
const REMARK_MAX = 255;

class NotConfirmed extends Error {}

/**
 * Approves or rejects one registration with an optional remark; a rejection is confirmed first. The
 * registrant is told by mail (the server sends it).
 */
export function ReviewDialog({
  row,
  decision,
  onClose,
  onReviewed,
}: {
  row: SysMessageRow;
  decision: ReviewDecision;
  onClose: () => void;
  onReviewed: () => void;
}) {
  const { t } = useTranslation('sysMessage');
  const { modal } = App.useApp();
  const [form] = Form.useForm<{ remark?: string }>();
  const approve = decision === 'approve';

  const confirmReject = () =>
    new Promise<void>((resolve, reject) => {
      void modal.confirm({
        title: t('review.rejectTitle'),
        content: t('review.rejectConfirm', { name: row.name ?? '' }),
        okText: t('registration.action.reject'),
        okButtonProps: { danger: true, 'data-testid': 'review-confirm-ok' } as never,
        cancelText: t('review.cancel'),
        onOk: () => resolve(),
        onCancel: () => reject(new NotConfirmed()),
      });
    });

  const submit = async ({ remark }: { remark?: string }) => {
    if (!approve) await confirmReject();
    try {
      await call(
        api.registration.reviewRegistration,
        { body: { id: row.id, approve, remark: remark?.trim() || undefined } },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed('audit', error);
      throw error;
    }
    toastSucceeded('audit');
    onReviewed();
  };

  const staffType =
    row.staffType === 1 ? t('staffType.mtr') : row.staffType === 0 ? t('staffType.contractor') : '-';

  return (
    <FormDialog<{ remark?: string }>
      open
      title={approve ? t('review.approveTitle') : t('review.rejectTitle')}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      okText={approve ? t('registration.action.approve') : t('registration.action.reject')}
      width={520}
      testId="review"
    >
      <Descriptions
        size="small"
        column={1}
        bordered
        style={{ marginBottom: 16 }}
        items={[
          { key: 'name', label: t('registration.column.name'), children: row.name ?? '-' },
          { key: 'email', label: t('registration.column.email'), children: row.email ?? '-' },
          { key: 'staffType', label: t('registration.column.staffType'), children: staffType },
          {
            key: 'createdAt',
            label: t('registration.column.createdAt'),
            children: formatDateTime(row.createdAt),
          },
        ]}
      />
      <Form.Item
        name="remark"
        label={t('review.remark')}
        extra={approve ? t('review.remarkHintApprove') : t('review.remarkHintReject')}
      >
        <Input.TextArea rows={3} maxLength={REMARK_MAX} showCount data-testid="review-remark" />
      </Form.Item>
    </FormDialog>
  );
}
