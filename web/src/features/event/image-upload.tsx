import { UploadOutlined } from '@ant-design/icons';
import type { TEventImage } from '@aiedu/contracts';
import { Alert, Upload } from 'antd';
import { useState } from 'react';
import { Button } from '../../ui/button';
import { serverMessage } from '../../app/api-client';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
/** By its type, or by its name where the browser gives none (the server checks the bytes either way). */
const isImage = (file: File) => IMAGE_TYPES.includes(file.type) || (!file.type && /\.(jpe?g|png)$/i.test(file.name));

/**
 * A JPG or PNG uploaded as soon as it is picked, checked here first (type, size) and by the server's bytes after;
 * the caller keeps the key the server answers. The texts are the caller's (a cover or a declaration photo), from
 * its own namespace.
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
  texts: { pick: string; change: string; hint: string; wrongType: string; tooLarge: string; failed: string };
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const pick = async (file: File) => {
    setProblem(undefined);
    if (!isImage(file)) return setProblem(texts.wrongType);
    if (file.size > maxBytes) return setProblem(texts.tooLarge);
    setBusy(true);
    try {
      onUploaded(await upload(file));
    } catch (error) {
      setProblem(serverMessage(error) ?? texts.failed);
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
