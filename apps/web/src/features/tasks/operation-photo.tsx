import { PictureOutlined } from '@ant-design/icons';
import { api } from '@uiot/contracts';
import { Button, Image } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '../../lib/request/index.ts';

/**
 * The live photo of an operation record: fetched through the request layer (operationRecord.read) when the
 * operator asks for it, and shown in the image preview from memory.
 */
export function OperationPhoto({ recordId }: { recordId: string }) {
  const { t } = useTranslation('tasks');
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const show = async () => {
    setLoading(true);
    try {
      const answer = await download(
        api.operationRecord.photo,
        { query: { id: recordId } },
        { noOverlay: true },
      );
      if (answer.kind === 'file') setUrl(URL.createObjectURL(answer.blob));
    } catch {
      // The request layer has told the operator why (not found, no permission).
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<PictureOutlined />}
        loading={loading}
        onClick={show}
        data-testid="operation-photo"
      >
        {t('operation.photo')}
      </Button>
      {url && (
        <Image
          src={url}
          style={{ display: 'none' }}
          preview={{ open: true, onOpenChange: (open) => !open && setUrl(null) }}
          alt={t('operation.photo')}
        />
      )}
    </>
  );
}
