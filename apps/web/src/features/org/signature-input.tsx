import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Image, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SignatureProblem, signatureFileProblem } from './signature-file.ts';

function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * The signature of a staff member as a form control. Its value is what the save sends: a data URL for a new
 * image, null to remove the stored one, undefined to keep it (`stored` is then previewed).
 */
export function SignatureInput({
  value,
  onChange,
  stored,
}: {
  value?: string | null;
  onChange?: (value: string | null | undefined) => void;
  /** The stored signature (data URL), previewed while the value is undefined. */
  stored?: string | null;
}) {
  const { t } = useTranslation('org');
  const [problem, setProblem] = useState<SignatureProblem | null>(null);
  const preview = value === undefined ? stored : value;

  const choose = async (file: File) => {
    const found = signatureFileProblem(file);
    setProblem(found);
    if (!found) onChange?.(await readDataUrl(file));
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
          >
            <Button icon={<UploadOutlined />} data-testid="staff-signature-upload">
              {preview ? t('staff.signature.replace') : t('staff.signature.choose')}
            </Button>
          </Upload>
          {preview && (
            <Button
              icon={<DeleteOutlined />}
              onClick={() => {
                setProblem(null);
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
