import { api, type ClientReviewForm, type ClientRow, clientReviewForm } from '@uiot/contracts';
import { Descriptions, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SchemaField, SchemaForm } from '../../lib/crud/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { call } from '../../lib/request/index.ts';

/** What the reviewer decides of a registration. */
export type ClientDecision = 'pass' | 'reject';

/**
 * Passes or rejects a client's registration (spec §3 Client): the reviewer compares the registration code
 * the client shows with the one it sent; a rejection needs a description, which the client is shown. The
 * form is the contracts' `clientReviewForm`, so the dialog refuses what the server would.
 */
export function ClientReviewDialog({
  client,
  decision,
  open,
  onClose,
  onDone,
}: {
  client: ClientRow;
  decision: ClientDecision;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('clients');
  const [form] = Form.useForm<ClientReviewForm>();
  const pass = decision === 'pass';

  const send = async ({ resultDesc }: ClientReviewForm) => {
    try {
      await call(
        api.client.review,
        { body: { id: client.id, pass, ...(resultDesc?.trim() && { resultDesc: resultDesc.trim() }) } },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed('audit', error, { withIssues: true });
      throw error;
    }
    toastSucceeded('audit');
    onDone();
  };

  return (
    <FormDialog<ClientReviewForm>
      open={open}
      title={t(pass ? 'review.passTitle' : 'review.rejectTitle', { name: client.name })}
      form={form}
      // The schema checks the description against the decision, so both are in the form's values.
      initialValues={{ id: client.id, pass }}
      onSubmit={send}
      onClose={onClose}
      okText={t(`action.${decision}`)}
      width={560}
      confirmUnsaved
      testId="clients-review-dialog"
    >
      <Descriptions
        size="small"
        column={1}
        bordered
        className="uiot-clients__review-facts"
        items={[
          { key: 'name', label: t('column.name'), children: client.name },
          { key: 'clientId', label: t('column.clientId'), children: client.clientId },
          { key: 'clientType', label: t('column.clientType'), children: t(`type.${client.clientType}`) },
          {
            key: 'registCode',
            label: t('column.registCode'),
            children: (
              <Typography.Text strong code data-testid="clients-review-code">
                {client.registCode}
              </Typography.Text>
            ),
          },
        ]}
      />
      {pass && <Typography.Paragraph type="secondary">{t('review.compareCode')}</Typography.Paragraph>}
      <SchemaForm schema={clientReviewForm} label={(field) => t(`column.${field}`)} testId="clientReview">
        <SchemaField
          name="resultDesc"
          required={!pass}
          extra={t(pass ? 'review.passHint' : 'review.rejectHint')}
        />
      </SchemaForm>
    </FormDialog>
  );
}
