import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  formatBytes,
  IMPORT_MAX_BYTES,
  type ImportError,
  type ImportKind,
  translateValidation,
  XLSX_MIME,
} from '@uiot/contracts';
import { Alert, Button, Modal, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError, toastWarning } from '../../../lib/feedback/feedback.ts';
import { toastFailed, toastSucceeded } from '../../../lib/feedback/outcome.ts';
import { safeFileName, saveBlob } from '../../../lib/file/save-file.ts';
import { useLang } from '../../../lib/i18n/use-lang.ts';
import { isRequestError } from '../../../lib/request/index.ts';
import { downloadTemplate, importWorkbook } from './import-calls.ts';
import { type ImportOutcome, importFailureOutcome, importFileProblem } from './import-outcome.ts';

export interface ImportDialogProps {
  kind: ImportKind;
  open: boolean;
  onClose: () => void;
  /** Called after a successful import (e.g. to refresh the table). */
  onImported: () => void;
}

/**
 * Import from Excel (issue 4): download the template of the kind, choose the filled-in .xlsx file and send
 * it. The server checks every row first: a file with errors is refused with the row, column and reason of
 * each, and nothing is written; a good one is written whole.
 */
export function ImportDialog(props: ImportDialogProps) {
  // Each opening starts afresh; the last one stays mounted while the dialog closes.
  const [opening, setOpening] = useState(0);
  const [wasOpen, setWasOpen] = useState(false);
  if (props.open !== wasOpen) {
    setWasOpen(props.open);
    if (props.open) setOpening(opening + 1);
  }
  if (opening === 0) return null;
  return <ImportDialogBody key={opening} {...props} />;
}

function ImportDialogBody({ kind, open, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation('transfer');
  const { t: tc } = useTranslation('common');
  const lang = useLang();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'template' | 'import' | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  const requestClose = () => {
    if (busy === 'import') {
      toastWarning(tc('dialog.pleaseWait'));
      return;
    }
    onClose();
  };

  const saveTemplate = async () => {
    setBusy('template');
    try {
      const result = await downloadTemplate(kind, { canCancel: false });
      if (result.kind === 'file') {
        saveBlob(result.blob, result.fileName ?? `${safeFileName(t(`template.${kind}`))}.xlsx`);
      } else {
        toastError(t('templateFailed'));
      }
    } catch {
      // The request layer has shown the failure.
    } finally {
      setBusy(null);
    }
  };

  const choose = (chosen: File) => {
    const problem = importFileProblem(chosen);
    setOutcome(null);
    if (problem) {
      setFile(null);
      setFileProblem(
        problem === 'size'
          ? translateValidation('v.fileTooLarge', lang, { max: formatBytes(IMPORT_MAX_BYTES) })
          : t(`fileProblem.${problem}`),
      );
      return;
    }
    setFileProblem(null);
    setFile(chosen);
  };

  const send = async () => {
    if (!file) return;
    setBusy('import');
    setOutcome(null);
    try {
      const { imported } = await importWorkbook(kind, file, { silent: true, canCancel: false });
      setOutcome({ kind: 'imported', count: imported });
      setFile(null);
      toastSucceeded('import');
      onImported();
    } catch (error) {
      const shown = isRequestError(error) ? importFailureOutcome(error) : null;
      if (shown) setOutcome(shown);
      else toastFailed('import', error, { withIssues: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t(`title.${kind}`)}
      width={760}
      onCancel={requestClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <>
          <Button onClick={requestClose} data-testid="import-close">
            {tc('action.close')}
          </Button>
          <Button
            type="primary"
            onClick={() => void send()}
            disabled={!file}
            loading={busy === 'import'}
            data-testid="import-submit"
          >
            {t('submit')}
          </Button>
        </>
      }
    >
      <div data-testid="import-dialog" data-kind={kind}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Typography.Title level={5}>{t('step.template')}</Typography.Title>
        <Typography.Paragraph>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void saveTemplate()}
            loading={busy === 'template'}
            data-testid="import-template"
          >
            {t('downloadTemplate')}
          </Button>
        </Typography.Paragraph>
        <Typography.Title level={5}>{t('step.file')}</Typography.Title>
        <Upload.Dragger
          accept={`.xlsx,${XLSX_MIME}`}
          multiple={false}
          maxCount={1}
          showUploadList={{ showRemoveIcon: busy !== 'import' }}
          fileList={file ? [{ uid: 'chosen', name: file.name, size: file.size, status: 'done' }] : []}
          beforeUpload={(chosen) => {
            choose(chosen);
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setOutcome(null);
          }}
          disabled={busy === 'import'}
          data-testid="import-file"
        >
          <p className="ant-upload-text">
            <InboxOutlined style={{ color: 'var(--ant-color-primary)', marginInlineEnd: 8 }} />
            {t('choose')}
          </p>
          <p className="ant-upload-hint">{t('chooseHint', { max: formatBytes(IMPORT_MAX_BYTES) })}</p>
        </Upload.Dragger>
        {fileProblem && (
          <Alert
            type="error"
            showIcon
            title={fileProblem}
            style={{ marginTop: 12 }}
            data-testid="import-file-problem"
          />
        )}
        {outcome && <OutcomeView outcome={outcome} />}
      </div>
    </Modal>
  );
}

function OutcomeView({ outcome }: { outcome: ImportOutcome }) {
  const { t } = useTranslation('transfer');
  if (outcome.kind === 'imported') {
    return (
      <Alert
        type="success"
        showIcon
        title={t('imported', { count: outcome.count })}
        style={{ marginTop: 16 }}
        data-testid="import-result"
      />
    );
  }
  return (
    <div style={{ marginTop: 16 }}>
      <Alert
        type="error"
        showIcon
        title={outcome.message || t('refused')}
        description={outcome.kind === 'invalid' ? t('nothingWritten') : undefined}
        data-testid="import-result"
      />
      {outcome.kind === 'invalid' && outcome.errors.length > 0 && (
        <Table<ImportError & { index: number }>
          size="small"
          style={{ marginTop: 12 }}
          rowKey="index"
          dataSource={outcome.errors.map((error, index) => ({ ...error, index }))}
          pagination={outcome.errors.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
          scroll={{ y: 240 }}
          columns={[
            { key: 'row', dataIndex: 'row', title: t('error.row'), width: 80, align: 'right' },
            {
              key: 'column',
              dataIndex: 'column',
              title: t('error.column'),
              width: 180,
              render: (column: string | null) => column ?? t('error.wholeRow'),
            },
            { key: 'message', dataIndex: 'message', title: t('error.reason') },
          ]}
          data-testid="import-errors"
        />
      )}
    </div>
  );
}
