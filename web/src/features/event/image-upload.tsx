import { UploadOutlined } from '@ant-design/icons';
import type { TEventImage } from '@aiedu/contracts';
import { Alert, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { serverMessage } from './event-labels';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

/**
 * A JPG or PNG uploaded as soon as it is picked, checked here first (type, size) and by the server's bytes after;
 * the caller keeps the key the server answers. The texts are the caller's: a cover or a declaration photo.
 */
export function ImageUpload({
  hasImage,
  maxBytes,
  upload,
  onUploaded,
  texts,
}: {
  hasImage: boolean;
  maxBytes: number;
  upload: (file: File) => Promise<TEventImage>;
  onUploaded: (image: TEventImage) => void;
  texts: { pick: string; change: string; hint: string; wrongType: string; tooLarge: string };
}) {
  const { t } = useTranslation('event');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const pick = async (file: File) => {
    setProblem(undefined);
    if (!IMAGE_TYPES.includes(file.type)) return setProblem(texts.wrongType);
    if (file.size > maxBytes) return setProblem(texts.tooLarge);
    setBusy(true);
    try {
      onUploaded(await upload(file));
    } catch (error) {
      setProblem(serverMessage(error) ?? t('common.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Upload
        accept={IMAGE_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          void pick(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          {hasImage ? texts.change : texts.pick}
        </Button>
      </Upload>
      <p className="event-muted">{texts.hint}</p>
      {problem && <Alert type="error" showIcon title={problem} role="alert" />}
    </>
  );
}
