import { useQuery } from '@tanstack/react-query';
import { api, type DeviceRow, type ReplacementRow } from '@uiot/contracts';
import { Alert, Button, Form, Modal, Result, Skeleton, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hide, type Shown, show } from '../../../lib/dialog/shown.ts';
import { errorReason } from '../../../lib/feedback/outcome.ts';
import { formatDateTime } from '../../../lib/i18n/date-format.ts';
import { useLang } from '../../../lib/i18n/use-lang.ts';
import { call, endpointQuery, isCancelled } from '../../../lib/request/index.ts';
import { DeviceCredentialDialog, type IssuedCredential } from '../../iot/index.ts';
import { ReplacementSelect } from './replacement-select.tsx';
import {
  canContinue,
  canRetry,
  currentStepIndex,
  isUnfinished,
  type ReplacementStepItem,
  reasonText,
  remindsCredential,
  replacementStepItems,
  shownReasonParams,
  takeProceeded,
} from './replacement-steps.ts';

const CALL = { silent: true, canCancel: false } as const;

/**
 * One-click lock replacement of a registered device (spec §4): choose an unregistered replacement, start,
 * and the steps run one after the other on the server; each step shows its state and reason, a failed or
 * pending step is retried, and reopening the dialog resumes an unfinished procedure. The replacement's
 * device credential, issued when it is re-registered, is shown once in the credential dialog on top.
 */
export function ReplacementDialog({
  device,
  open,
  onClose,
  onChanged,
}: {
  device: DeviceRow;
  open: boolean;
  onClose: () => void;
  /** The ledger changed (registrations moved): refresh it. */
  onChanged: () => void;
}) {
  const { t } = useTranslation('ledger');
  const lang = useLang();
  const latest = useQuery({
    ...endpointQuery(
      api.lockReplacement.getByDevice,
      { deviceId: device.id },
      { noOverlay: true, silent: true },
    ),
    staleTime: 0,
    gcTime: 0,
  });
  // What start and proceed answered; before them, the unfinished procedure the device is in (resumed).
  const [answered, setAnswered] = useState<ReplacementRow | null>(null);
  const procedure = answered ?? (isUnfinished(latest.data ?? null) ? (latest.data ?? null) : null);
  const [replacementId, setReplacementId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Only the answer that issued it carries the credential; it is dropped once its dialog has closed.
  const [credential, setCredential] = useState<Shown<IssuedCredential> | null>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      if (!isCancelled(error)) setFailure(errorReason(error));
    } finally {
      setBusy(false);
      onChanged();
    }
  };

  const proceeded = async (id: string) => {
    const { procedure, issued } = takeProceeded(
      await call(api.lockReplacement.proceed, { body: { id } }, CALL),
    );
    setAnswered(procedure);
    if (issued) setCredential(show(issued));
  };

  const proceed = (id: string) => run(() => proceeded(id));

  const start = () =>
    run(async () => {
      if (!replacementId) return;
      const started = await call(
        api.lockReplacement.start,
        { body: { deviceId: device.id, replacementId } },
        CALL,
      );
      setAnswered(started);
      await proceeded(started.id);
    });

  const items = replacementStepItems(procedure);
  const own = (key: string, params: Record<string, string>) =>
    t(
      `replacement.reason.${key}`,
      shownReasonParams(params, (state) => t(`iot:command.state.${state}`)),
    );
  // The "not executed" starting point reads as started (or waiting to start), not as a step done.
  const stateText = (item: ReplacementStepItem) => {
    if (item.step !== 'NotExecuted') return t(`replacement.state.${item.state}`);
    return item.state === 'Done' ? t('replacement.started') : t('replacement.notStarted');
  };
  const steps = items.map((item) => {
    const reason = reasonText(item.reason, item.reasonParams, lang, own);
    return {
      key: item.step,
      status: item.status,
      title: <span data-testid={`replacement-step-${item.step}`}>{t(`replacement.step.${item.step}`)}</span>,
      content: (
        <div className="uiot-ledger__step" data-testid={`replacement-state-${item.step}`}>
          <Typography.Text type={item.state === 'Failed' ? 'danger' : 'secondary'}>
            {stateText(item)}
            {item.time && item.state !== 'NotExecuted' ? ` · ${formatDateTime(item.time)}` : ''}
          </Typography.Text>
          {reason && (
            <Typography.Text
              type={item.state === 'Failed' ? 'danger' : 'warning'}
              className="uiot-ledger__step-reason"
              data-testid={`replacement-reason-${item.step}`}
            >
              {reason}
            </Typography.Text>
          )}
        </div>
      ),
    };
  });

  const completed = procedure?.status === 'Completed';
  const footer = [
    <Button key="close" onClick={onClose} disabled={busy} data-testid="replacement-close">
      {t('replacement.close')}
    </Button>,
    ...(procedure === null && !latest.isLoading
      ? [
          <Button
            key="start"
            type="primary"
            loading={busy}
            disabled={!replacementId || !device.regist}
            onClick={() => void start()}
            data-testid="replacement-start"
          >
            {t('replacement.start')}
          </Button>,
        ]
      : []),
    ...(procedure && canRetry(procedure)
      ? [
          <Button
            key="retry"
            type="primary"
            loading={busy}
            onClick={() => void proceed(procedure.id)}
            data-testid="replacement-retry"
          >
            {t('replacement.retry')}
          </Button>,
        ]
      : []),
    ...(procedure && canContinue(procedure)
      ? [
          <Button
            key="continue"
            type="primary"
            loading={busy}
            onClick={() => void proceed(procedure.id)}
            data-testid="replacement-continue"
          >
            {t('replacement.continue')}
          </Button>,
        ]
      : []),
  ];

  return (
    <>
      <Modal
        open={open}
        title={t('replacement.title', { name: device.name })}
        width={720}
        onCancel={() => !busy && onClose()}
        mask={{ closable: false }}
        footer={footer}
        destroyOnHidden
      >
        <div data-testid="replacement-dialog">
          {latest.isLoading ? (
            <Skeleton active />
          ) : (
            <>
              {!device.regist && !procedure && (
                <Alert
                  type="warning"
                  showIcon
                  className="uiot-ledger__alert"
                  title={t('replacement.notRegistered')}
                  data-testid="replacement-not-registered"
                />
              )}
              {procedure ? (
                <Typography.Paragraph className="uiot-ledger__replacing" data-testid="replacement-pair">
                  {t('replacement.pair', {
                    device: procedure.deviceName,
                    replacement: procedure.replacementName,
                  })}
                </Typography.Paragraph>
              ) : (
                <Form layout="vertical">
                  <Form.Item
                    label={t('replacement.replacement')}
                    extra={t('replacement.replacementHint')}
                    required
                  >
                    <ReplacementSelect
                      device={device}
                      value={replacementId}
                      onChange={setReplacementId}
                      disabled={busy || !device.regist}
                    />
                  </Form.Item>
                </Form>
              )}
              {failure && (
                <Alert
                  type="error"
                  showIcon
                  className="uiot-ledger__alert"
                  title={failure}
                  data-testid="replacement-failure"
                />
              )}
              <Steps
                orientation="vertical"
                size="small"
                current={currentStepIndex(items)}
                items={steps}
                data-testid="replacement-steps"
              />
              {remindsCredential(procedure) && (
                <Alert
                  type="info"
                  showIcon
                  className="uiot-ledger__alert"
                  title={t('replacement.credentialShownOnce', {
                    name: procedure.replacementName,
                    code: procedure.replacementCode,
                  })}
                  data-testid="replacement-credential-reminder"
                />
              )}
              {completed && (
                <Result
                  status="success"
                  title={t('replacement.completed')}
                  className="uiot-ledger__done"
                  data-testid="replacement-completed"
                />
              )}
            </>
          )}
        </div>
      </Modal>
      {credential && (
        <DeviceCredentialDialog
          key={credential.opening}
          issued={credential.value}
          open={credential.open}
          onClose={() => setCredential(hide)}
          afterClose={() => setCredential(null)}
        />
      )}
    </>
  );
}
