import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { api } from '@uiot/contracts';
import { Button, Image, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastFailed } from '../../lib/feedback/outcome.ts';
import { useObjectUrl } from '../../lib/file/object-url.ts';
import { upload } from '../../lib/request/index.ts';
import { type SignatureProblem, signatureFileProblem } from './signature-file.ts';

/**
 * The signature of a staff member as a form control (spec §5: one png or jpg file). A chosen image is
 * uploaded at once (multipart, kind signature); the control's value is what the save sends: the upload's
 * id, null to remove the stored signature, undefined to keep it (`stored` is then previewed).
 */
export function SignatureInput({
  value,
  onChange,
  stored,
}: {
  value?: string | null;
  onChange?: (value: string | null | undefined) => void;
  /** The stored signature image, previewed while the value is undefined. */
  stored?: Blob | null;
}) {
  const { t } = useTranslation('org');
  const [problem, setProblem] = useState<SignatureProblem | null>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const preview = useObjectUrl(value === undefined ? stored : value === null ? null : chosen);

  const choose = async (file: File) => {
    const found = signatureFileProblem(file);
    setProblem(found);
    if (found) return Upload.LIST_IGNORE;
    setUploading(true);
    try {
      const uploaded = await upload(
        api.file.upload,
        { query: { kind: 'signature' }, file, fileName: file.name },
        { silent: true, canCancel: false },
      );
      setChosen(file);
      onChange?.(uploaded.id);
    } catch (error) {
      toastFailed('upload', error);
    } finally {
      setUploading(false);
    }
    return Upload.LIST_IGNORE;
  };

  return (
    <div className="uiot-org__signature" data-testid="staff-signature">
      {preview ? (
        <Image
          src={preview}
          alt={t('staff.column.signature')}
          className="uiot-org__signature-image"
          data-testid="staff-signature-preview"
        />
      ) : (
        <div className="uiot-org__signature-empty">{t('staff.signature.none')}</div>
      )}
      <Space orientation="vertical" size={4}>
        <Space wrap>
          <Upload
            accept=".png,.jpg,.jpeg,image/png,image/jpeg"
            maxCount={1}
            showUploadList={false}
            beforeUpload={choose}
            disabled={uploading}
          >
            <Button icon={<UploadOutlined />} loading={uploading} data-testid="staff-signature-upload">
              {preview ? t('staff.signature.replace') : t('staff.signature.choose')}
            </Button>
          </Upload>
          {preview && (
            <Button
              icon={<DeleteOutlined />}
              disabled={uploading}
              onClick={() => {
                setProblem(null);
                setChosen(null);
                onChange?.(stored ? null : undefined);
              }}
              data-testid="staff-signature-remove"
            >
              {t('staff.signature.remove')}
            </Button>
          )}
        </Space>
        <Typography.Text type={problem ? 'danger' : 'secondary'} data-testid="staff-signature-hint">
          {problem === 'size'
            ? t('staff.signature.tooLarge')
            : problem === 'type'
              ? t('staff.signature.wrongType')
              : t('staff.signature.hint')}
        </Typography.Text>
      </Space>
    </div>
  );
}
